package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/podlife/podlife/examples/internal/manifests"
	"github.com/podlife/podlife/validation"
)

// writeText prints one line per object, each cause and warning on its own line with
// its file and line, then a summary.
func writeText(w io.Writer, c *checker) {
	for _, o := range c.objects {
		r := &o.result
		at := fmt.Sprintf("%s:%d: ", o.file, r.Line)
		as := ""
		switch {
		case r.Patch != nil && string(r.Patch) == "{}":
			as = " and unchanged: kubectl apply sends nothing"
		case r.Patch != nil:
			as = " as a patch of the live object"
		case r.Update:
			as = " as an update of the live object"
		}
		switch r.Verdict {
		case validation.Valid:
			fmt.Fprintf(w, "%s%s is valid%s\n", at, title(r), as)
		case validation.NotChecked:
			fmt.Fprintf(w, "%s%s is not checked: it holds no pod\n", at, title(r))
		case validation.Invalid:
			fmt.Fprintf(w, "%s%s is invalid%s:\n", at, invalidTitle(r), as)
			writeCauses(w, o)
		case validation.Rejected:
			by := "kubectl"
			if r.Status() != nil {
				by = "the server"
			}
			fmt.Fprintf(w, "%s%s is rejected by %s%s: %s\n", at, title(r), by, as, manifests.IndentLines(r.Message()))
			if len(o.causes) > 1 || len(o.causes) == 1 && o.causes[0].field != "" {
				writeCauses(w, o)
			}
			var ke *validation.KubectlError
			if errors.As(r.Err, &ke) && ke.Stops {
				fmt.Fprintf(w, "%snote: kubectl %s stops reading %s here and sends none of the documents after it\n", at, c.command(), o.file)
			}
		}
		for _, warn := range r.Warnings {
			from := ""
			if warn.Server {
				from = " from the server"
			}
			fmt.Fprintf(w, "%s:%d: warning%s: %s\n", o.file, warn.Line, from, warn.Message)
		}
	}
	writeSummary(w, c)
}

// writeCauses prints an object's causes, indented.
func writeCauses(w io.Writer, o object) {
	for _, cs := range o.causes {
		fmt.Fprintf(w, "  %s:%d: %s\n", o.file, cs.line, manifests.IndentLines(cs.message))
		if cs.hint != "" {
			fmt.Fprintf(w, "  %s:%d: hint: accepted with %s\n", o.file, cs.line, cs.hint)
		}
		if cs.note != "" {
			fmt.Fprintf(w, "  %s:%d: hint: %s\n", o.file, cs.line, cs.note)
		}
	}
}

// writeSummary prints the counts and the objects not checked.
func writeSummary(w io.Writer, c *checker) {
	counts := map[validation.Verdict]int{}
	var notChecked []string
	notCheckedKinds := map[string]int{}
	for _, o := range c.objects {
		counts[o.result.Verdict]++
		if o.result.Verdict == validation.NotChecked {
			notChecked = append(notChecked, fmt.Sprintf("%s (%s:%d)", title(&o.result), o.file, o.result.Line))
			notCheckedKinds[o.result.Kind]++
		}
	}
	fmt.Fprintf(w, "\n%s in %s: %d valid, %d invalid, %d rejected, %d not checked\n", plural(len(c.objects), "object"), plural(len(c.names), "file"),
		counts[validation.Valid], counts[validation.Invalid], counts[validation.Rejected], counts[validation.NotChecked])
	switch {
	case len(notChecked) > maxNotCheckedListed:
		// Each has its line above; a directory of manifests would make this one line
		// thousands of characters long.
		fmt.Fprintf(w, "not checked (they hold no pod, each named above): %s\n", kindCounts(notCheckedKinds))
	case len(notChecked) > 0:
		fmt.Fprintf(w, "not checked (they hold no pod): %s\n", strings.Join(notChecked, ", "))
	}
	if c.liveFiles > 0 {
		fmt.Fprintf(w, "--live: %s read from %s (%d holding a pod); %s checked as an update\n", plural(c.liveRead, "object"), plural(c.liveFiles, "file"), c.live.Len(), plural(c.updates(), "object"))
	}
	if len(c.problems) > 0 {
		files := map[string]bool{}
		for _, p := range c.problems {
			files[p.file] = true
		}
		fmt.Fprintf(w, "%s could not be checked (see standard error)\n", plural(len(files), "file"))
	}
	if c.noObjects() {
		fmt.Fprintf(w, "kubectl %s -f fails on %s: %s\n", c.command(), strings.Join(c.names, ", "), c.noObjectsError())
	}
}

// maxNotCheckedListed is the most objects not checked that the summary names one by
// one; beyond it, the summary counts them by kind.
const maxNotCheckedListed = 8

// kindCounts renders counts by kind, the most frequent first, then by name:
// "63 Service, 19 ConfigMap".
func kindCounts(byKind map[string]int) string {
	kinds := slices.Collect(maps.Keys(byKind))
	slices.SortFunc(kinds, func(a, b string) int {
		if c := cmp.Compare(byKind[b], byKind[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = fmt.Sprintf("%d %s", byKind[k], k)
	}
	return strings.Join(parts, ", ")
}

// title names an object as `Kind "name"`, or by its document when it has no kind.
func title(r *validation.ObjectResult) string {
	if r.Kind == "" {
		if r.Item > 0 {
			return fmt.Sprintf("item %d of document %d", r.Item, r.Document)
		}
		return fmt.Sprintf("document %d", r.Document)
	}
	return fmt.Sprintf("%s %q", r.Kind, r.Name)
}

// invalidTitle names an invalid object as the server's message does
// (`Deployment.apps "web"`).
func invalidTitle(r *validation.ObjectResult) string {
	d := r.Status().ErrStatus.Details
	kind := d.Kind
	if d.Group != "" {
		kind += "." + d.Group
	}
	return fmt.Sprintf("%s %q", kind, d.Name)
}

// plural writes a count and a noun, in the plural unless the count is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
