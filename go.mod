module github.com/podlife/podlife

go 1.26.0

require (
	github.com/stretchr/testify v1.11.1 
	k8s.io/api v0.37.2 
	k8s.io/apimachinery v0.37.2 
)
