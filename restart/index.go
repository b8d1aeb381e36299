package restart

import (
	corev1 "k8s.io/api/core/v1"
)

// indexLimit is the list length above which a function that asks about every
// container indexes the list by name once, on its first lookup, instead of scanning
// it for each container: the cost stays linear in the number of containers, and
// ordinary pods, whose lists are shorter, allocate nothing. It is the lifecycle
// package's threshold.
const indexLimit = 16

// apiStatuses finds a container's API status as upstream's name map in
// ShouldAllContainersRestart does: a regular container status wins over an init
// container status, and a later entry over an earlier one. Ephemeral statuses are
// not looked at.
type apiStatuses struct {
	s      *corev1.PodStatus
	byName map[string]*corev1.ContainerStatus
}

func (x *apiStatuses) find(name string) *corev1.ContainerStatus {
	s := x.s
	n := len(s.InitContainerStatuses) + len(s.ContainerStatuses)
	if n <= indexLimit {
		return apiStatusByName(s, name)
	}
	if x.byName == nil {
		// Upstream's own construction: later writes win.
		x.byName = make(map[string]*corev1.ContainerStatus, n)
		for i := range s.InitContainerStatuses {
			x.byName[s.InitContainerStatuses[i].Name] = &s.InitContainerStatuses[i]
		}
		for i := range s.ContainerStatuses {
			x.byName[s.ContainerStatuses[i].Name] = &s.ContainerStatuses[i]
		}
	}
	return x.byName[name]
}

// apiStatusByName is apiStatuses.find by scanning, for short lists.
func apiStatusByName(s *corev1.PodStatus, name string) *corev1.ContainerStatus {
	for i := len(s.ContainerStatuses) - 1; i >= 0; i-- {
		if s.ContainerStatuses[i].Name == name {
			return &s.ContainerStatuses[i]
		}
	}
	for i := len(s.InitContainerStatuses) - 1; i >= 0; i-- {
		if s.InitContainerStatuses[i].Name == name {
			return &s.InitContainerStatuses[i]
		}
	}
	return nil
}

// newest answers rt.Newest for the duration of one call. The package's own
// runtimes, [Instances] and [StatusRuntime], scan on every question, so long ones
// are indexed by name on the first question; any other runtime is asked directly
// and its cost per question is its own (the lifecycle package's view answers in
// constant time).
type newest struct {
	rt      Runtime
	checked bool // whether rt was considered for indexing
	// One of the two indexes, by name: the newest instance of an Instances, or the
	// status a StatusRuntime derives the newest instance from.
	instances map[string]*Instance
	statuses  map[string]*corev1.ContainerStatus
}

func (x *newest) get(name string) (Instance, bool) {
	if !x.checked {
		x.checked = true
		switch rt := x.rt.(type) {
		case Instances:
			if len(rt) > indexLimit {
				x.instances = make(map[string]*Instance, len(rt))
				for i := range rt {
					if _, seen := x.instances[rt[i].Name]; !seen {
						x.instances[rt[i].Name] = &rt[i]
					}
				}
			}
		case StatusRuntime:
			if n := rt.len(); n > indexLimit {
				x.statuses = make(map[string]*corev1.ContainerStatus, n)
				for _, list := range [...][]corev1.ContainerStatus{rt.Status.InitContainerStatuses, rt.Status.ContainerStatuses, rt.Status.EphemeralContainerStatuses} {
					for i := range list {
						if _, seen := x.statuses[list[i].Name]; seen {
							continue
						}
						if _, ok := statusInstance(&list[i]); ok {
							x.statuses[list[i].Name] = &list[i]
						}
					}
				}
			}
		}
	}
	switch {
	case x.instances != nil:
		if inst := x.instances[name]; inst != nil {
			return *inst, true
		}
		return Instance{}, false
	case x.statuses != nil:
		if st := x.statuses[name]; st != nil {
			return statusInstance(st)
		}
		return Instance{}, false
	}
	return x.rt.Newest(name)
}
