// Package apischeme builds a scheme of the Go types (k8s.io/api, v0.37.2) of the
// kinds a default Kubernetes v1.37.2 kube-apiserver serves, for
// [validation.StreamOptions.Scheme]: with it, ValidateStream decodes objects that hold
// no pod (Services, ConfigMaps, Roles, ...) as the server's create handler decodes
// them, with strict field validation (k8s.io/apiserver pkg/endpoints/handlers/create.go),
// so that an unknown field or a value of the wrong type in them is the server's 400,
// as in the objects that hold a pod.
//
// It lives apart from package validation because linking the types of every API
// group makes a program larger; a program that reads pods only need not pay for it.
//
// The kinds served from other modules' types are not in it: CustomResourceDefinition
// (k8s.io/apiextensions-apiserver) and APIService (k8s.io/kube-aggregator).
// ValidateStream leaves their objects unread.
package apischeme
