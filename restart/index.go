package restart

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/podlife/podlife/internal/byname"
)

// apiStatuses finds a container's API status as upstream's name map in
// ShouldAllContainersRestart does: a regular container status wins over an init
// container status, and a later entry over an earlier one. Ephemeral statuses are
// not looked at. Long lists are indexed on the first lookup ([byname]).
type apiStatuses struct {
	init, regular byname.Index[corev1.ContainerStatus]
}

func newAPIStatuses(s *corev1.PodStatus) apiStatuses {
	return apiStatuses{init: byname.Statuses(s.InitContainerStatuses), regular: byname.Statuses(s.ContainerStatuses)}
}

func (x *apiStatuses) find(name string) *corev1.ContainerStatus {
	if st := x.regular.LastEntry(name); st != nil {
		return st
	}
	return x.init.LastEntry(name)
}

// newest answers "the newest instance of this container" for the duration of one
// call: over a view, the first instance with that name; without one, the instance the
// pod's API statuses yield (init, regular, then ephemeral statuses, the first with
// that name that yields one, as [InstanceFromStatus] maps it, except that a status
// waiting with reason RestartingAllContainers yields none). Long lists are indexed on
// the first question, so asking about every container stays linear.
type newest struct {
	view      bool
	instances byname.Index[Instance]
	statuses  [3]byname.Index[corev1.ContainerStatus]
}

func newNewest(view *View, status *corev1.PodStatus) newest {
	if view != nil {
		return newest{view: true, instances: byname.New(view.Instances, func(i *Instance) string { return i.Name })}
	}
	return newest{statuses: [3]byname.Index[corev1.ContainerStatus]{
		byname.Statuses(status.InitContainerStatuses),
		byname.Statuses(status.ContainerStatuses),
		byname.Statuses(status.EphemeralContainerStatuses),
	}}
}

func (x *newest) get(name string) (Instance, bool) {
	if x.view {
		if inst := x.instances.FirstEntry(name); inst != nil {
			return *inst, true
		}
		return Instance{}, false
	}
	for k := range x.statuses {
		for i := range x.statuses[k].All(name) {
			if inst, ok := statusInstance(x.statuses[k].At(i)); ok {
				return inst, true
			}
		}
	}
	return Instance{}, false
}

// statusInstance is the instance a status yields without a view: none while it waits
// with reason RestartingAllContainers (the kubelet reports that state exactly when it
// has removed every instance of the container), otherwise InstanceFromStatus.
func statusInstance(st *corev1.ContainerStatus) (Instance, bool) {
	if st.State.Waiting != nil && st.State.Waiting.Reason == ReasonRestartingAllContainers {
		return Instance{}, false
	}
	return InstanceFromStatus(st)
}
