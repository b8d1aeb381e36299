package manifest

import "testing"

func TestDecode(t *testing.T) {
	data := []byte(`apiVersion: v1
kind: Pod
metadata: {name: p}
---
# an empty document
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: c}
spec:
  jobTemplate:
    spec:
      template:
        spec: {containers: [{name: a, image: x}]}
---
{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s"}}
`)
	objects, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	type row struct{ kind, name, path string }
	want := []row{{"Pod", "p", ""}, {"CronJob.batch", "c", "spec.jobTemplate.spec.template"}, {"Service", "s", ""}}
	if len(objects) != len(want) {
		t.Fatalf("got %d objects, want %d", len(objects), len(want))
	}
	for i, o := range objects {
		got := row{o.QualifiedKind(), o.Meta.Name, ""}
		if o.TemplatePath != nil {
			got.path = o.TemplatePath.String()
		}
		if got != want[i] {
			t.Errorf("object %d: got %+v, want %+v", i, got, want[i])
		}
	}
	if objects[0].Pod == nil || objects[1].Template == nil || len(objects[1].Template.Spec.Containers) != 1 {
		t.Errorf("pod or template not decoded: %+v", objects[:2])
	}
}

func TestDecodeErrorNamesTheDocument(t *testing.T) {
	_, err := Decode([]byte("kind: Pod\n---\nkind: Pod\nspec: [1\n"))
	if err == nil || err.Error()[:11] != "document 2:" {
		t.Fatalf("got %v, want an error about document 2", err)
	}
}
