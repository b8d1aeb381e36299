package validation

import (
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// StoredObjects are the objects a cluster holds, by kind, namespace and name, for
// StreamOptions.Stored: read them with a DecodeOnly stream (of kubectl get -o yaml's
// output, say), Add each result, and pass Get as StreamOptions.Stored. The zero value
// is empty and ready to use. Add must not be called while a stream reads Get.
type StoredObjects struct {
	objects map[storedKey]runtime.Object
}

// unwrittenResourceVersion is the resourceVersion StoredObjects gives an object
// written without one.
const unwrittenResourceVersion = "1"

// storedKey names a stored object.
type storedKey struct{ group, kind, namespace, name string }

// Add keeps the object of a result: a decoded object (Object set, Valid or
// NotChecked) of a kind that holds a pod, with a name. It returns false, keeping
// nothing, for any other result and for an object whose kind, namespace and name an
// earlier one had (the first is kept, as a cluster holds one). An object written
// without a resourceVersion (a manifest standing for the object it created) is kept
// with "1", as every stored object has one; the result's object is not changed. The
// object is kept as written: what the server adds on create, such as a Job's
// generated selector, is only there when the object was read from the cluster.
func (s *StoredObjects) Add(r ObjectResult) bool {
	if r.Object == nil || r.Name == "" || (r.Verdict != Valid && r.Verdict != NotChecked) {
		return false
	}
	gv, err := schema.ParseGroupVersion(r.APIVersion)
	if err != nil || !podKinds[schema.GroupKind{Group: gv.Group, Kind: r.Kind}] {
		return false
	}
	k := storedKey{gv.Group, r.Kind, r.Namespace, r.Name}
	if _, dup := s.objects[k]; dup {
		return false
	}
	if s.objects == nil {
		s.objects = map[storedKey]runtime.Object{}
	}
	obj := r.Object
	if m, err := meta.Accessor(obj); err == nil && m.GetResourceVersion() == "" {
		// Every stored object has one; a manifest standing for the object it
		// created gets one, so that an update that sends none takes it.
		obj = obj.DeepCopyObject()
		m, _ = meta.Accessor(obj)
		m.SetResourceVersion(unwrittenResourceVersion)
	}
	s.objects[k] = obj
	return true
}

// Get returns the object added for a kind, namespace and name, nil when there is
// none. It has the type of StreamOptions.Stored; a nil *StoredObjects holds none.
func (s *StoredObjects) Get(kind schema.GroupKind, namespace, name string) runtime.Object {
	if s == nil {
		return nil
	}
	return s.objects[storedKey{kind.Group, kind.Kind, namespace, name}]
}

// Len returns the number of objects added.
func (s *StoredObjects) Len() int {
	if s == nil {
		return 0
	}
	return len(s.objects)
}
