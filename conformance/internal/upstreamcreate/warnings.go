package upstreamcreate

import (
	"context"
	"net/http"
	"net/http/httptest"
	_ "unsafe" // go:linkname

	"k8s.io/apimachinery/pkg/runtime"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/apiserver/pkg/endpoints/filters"
	"k8s.io/apiserver/pkg/warning"
)

// dedupOwnerReferencesAndAddWarning is the create and update handlers' first step on
// a decoded object: repeated owner references dropped, with a warning
// (k8s.io/apiserver pkg/endpoints/handlers/rest.go).
//
//go:linkname dedupOwnerReferencesAndAddWarning k8s.io/apiserver/pkg/endpoints/handlers.dedupOwnerReferencesAndAddWarning
func dedupOwnerReferencesAndAddWarning(obj runtime.Object, requestContext context.Context, afterMutatingAdmission bool)

// recorderSink records warnings in the recorder of its context.
type recorderSink struct{ ctx context.Context }

func (s recorderSink) AddWarning(agent, text string) { warning.AddWarning(s.ctx, agent, text) }

// withRecorderOf returns ctx recording its warnings in the recorder of wctx.
func withRecorderOf(ctx, wctx context.Context) context.Context {
	return warning.WithWarningRecorder(ctx, recorderSink{wctx})
}

// Recorded runs fn with a context whose warnings the server's warning recorder
// (filters.WithWarningRecorder: each text once, truncated past 4 Ki runes) writes
// into a response, and returns them as client-go reads its Warning headers.
func Recorded(fn func(ctx context.Context)) []string {
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/", nil)
	filters.WithWarningRecorder(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		fn(r.Context())
	})).ServeHTTP(rec, req)
	return headerWarnings(rec.Header())
}

// headerWarnings are the texts of a response's Warning headers, as client-go reads
// them.
func headerWarnings(h http.Header) []string {
	warnings, _ := utilnet.ParseWarningHeaders(h.Values("Warning"))
	var texts []string
	for _, w := range warnings {
		texts = append(texts, w.Text)
	}
	return texts
}
