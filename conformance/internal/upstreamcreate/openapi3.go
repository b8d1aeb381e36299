package upstreamcreate

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/kube-openapi/pkg/spec3"
)

// servedOpenAPI is a kube-apiserver v1.37.2's OpenAPI v3 documents, as kubectl reads
// them from /openapi/v3 (k8s.io/client-go openapi3 Root): the ones upstream checks
// in (api/openapi-spec/v3 of k8s.io/kubernetes), generated from a server with the
// default gates.
type servedOpenAPI struct{ dir string }

var (
	openAPIOnce sync.Once
	openAPIDir  string
	openAPIErr  error
)

// ServedOpenAPI returns the v1.37.2 server's OpenAPI v3 documents.
func ServedOpenAPI() (servedOpenAPI, error) {
	openAPIOnce.Do(func() {
		out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "k8s.io/kubernetes").Output()
		if err != nil {
			openAPIErr = fmt.Errorf("locating k8s.io/kubernetes: %v", err)
			return
		}
		openAPIDir = filepath.Join(strings.TrimSpace(string(out)), "api", "openapi-spec", "v3")
	})
	return servedOpenAPI{openAPIDir}, openAPIErr
}

func (s servedOpenAPI) file(gv schema.GroupVersion) string {
	if gv.Group == "" {
		return filepath.Join(s.dir, "api__"+gv.Version+"_openapi.json")
	}
	return filepath.Join(s.dir, "apis__"+gv.Group+"__"+gv.Version+"_openapi.json")
}

// GroupVersions lists the documents' group versions.
func (s servedOpenAPI) GroupVersions() ([]schema.GroupVersion, error) {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, err
	}
	var gvs []schema.GroupVersion
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), "_openapi.json")
		parts := strings.Split(name, "__")
		switch {
		case len(parts) == 2 && parts[0] == "api":
			gvs = append(gvs, schema.GroupVersion{Version: parts[1]})
		case len(parts) == 3 && parts[0] == "apis":
			gvs = append(gvs, schema.GroupVersion{Group: parts[1], Version: parts[2]})
		}
	}
	return gvs, nil
}

// parsed holds the documents read so far, by file: kubectl's client caches them too,
// and kubectl only reads them.
var parsed sync.Map

// GVSpec reads a group version's document.
func (s servedOpenAPI) GVSpec(gv schema.GroupVersion) (*spec3.OpenAPI, error) {
	f := s.file(gv)
	if doc, ok := parsed.Load(f); ok {
		return doc.(*spec3.OpenAPI), nil
	}
	b, err := os.ReadFile(f)
	if err != nil {
		return nil, err
	}
	var doc spec3.OpenAPI
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, err
	}
	parsed.Store(f, &doc)
	return &doc, nil
}

// GVSpecAsMap reads a group version's document as JSON values.
func (s servedOpenAPI) GVSpecAsMap(gv schema.GroupVersion) (map[string]interface{}, error) {
	b, err := os.ReadFile(s.file(gv))
	if err != nil {
		return nil, err
	}
	var doc map[string]interface{}
	return doc, json.Unmarshal(b, &doc)
}
