module github.com/podlife/podlife

go 1.26.0
