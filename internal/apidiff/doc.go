// Package apidiff compares API values as the API server does when it validates an
// update: Equal is k8s.io/apimachinery's equality.Semantic.DeepEqual (quantities by
// value, times by instant, nil equal to empty), and PodSpec renders the difference
// between two pod specs as k8s.io/apimachinery pkg/util/diff.Diff renders upstream's
// internal PodSpec (JSON of the tagless internal type, one-space indent, a unified diff
// with three lines of context as github.com/pmezard/go-difflib writes it).
package apidiff
