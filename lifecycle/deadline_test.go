package lifecycle_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podlife/podlife/lifecycle"
)

// TestActiveDeadline re-expresses upstream's TestActiveDeadlineHandler, plus the boundary.
func TestActiveDeadline(t *testing.T) {
	now := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	start := metav1.NewTime(now.Add(-time.Minute))
	pod := func(deadline *int64, start *metav1.Time) *corev1.Pod {
		return &corev1.Pod{Spec: corev1.PodSpec{ActiveDeadlineSeconds: deadline}, Status: corev1.PodStatus{StartTime: start}}
	}
	exceeded := lifecycle.Eviction{Evict: true, Reason: "DeadlineExceeded", Message: "Pod was active on the node longer than the specified deadline"}
	for _, tc := range []struct {
		name string
		pod  *corev1.Pod
		want bool
	}{
		{"exceeded", pod(ptr(int64(30)), &start), true},
		{"not yet", pod(ptr(int64(120)), &start), false},
		{"no deadline", pod(nil, &start), false},
		{"no start time", pod(ptr(int64(120)), nil), false},
		{"nothing", pod(nil, nil), false},
		{"exactly at the deadline (inclusive)", pod(ptr(int64(60)), &start), true},
		{"one second before", pod(ptr(int64(61)), &start), false},
		{"zero start time", pod(ptr(int64(1)), &metav1.Time{}), false},
		{"zero deadline", pod(ptr(int64(0)), &start), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := tc.pod.DeepCopy()
			assert.Equal(t, tc.want, lifecycle.PastActiveDeadline(tc.pod, now))
			e := lifecycle.DeadlineEviction(tc.pod, now)
			if tc.want {
				assert.Equal(t, exceeded, e)
			} else {
				assert.Equal(t, lifecycle.Eviction{}, e)
			}
			at, ok := lifecycle.ActiveDeadline(tc.pod)
			assert.Equal(t, tc.pod.Spec.ActiveDeadlineSeconds != nil && !tc.pod.Status.StartTime.IsZero(), ok)
			if ok {
				assert.Equal(t, tc.want, !now.Before(at), "ActiveDeadline agrees with PastActiveDeadline")
				assert.True(t, lifecycle.PastActiveDeadline(tc.pod, at))
				assert.False(t, lifecycle.PastActiveDeadline(tc.pod, at.Add(-time.Nanosecond)))
			}
			assert.Equal(t, before, tc.pod)
		})
	}
	assert.False(t, lifecycle.PastActiveDeadline(nil, now))
	_, ok := lifecycle.ActiveDeadline(nil)
	assert.False(t, ok)
}

func FuzzActiveDeadline(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		in := &fuzzInput{b: data}
		pod := in.pod()
		now := fuzzBase.Add(time.Duration(int8(in.next())) * time.Duration(1+in.n(4)*3600) * time.Second)
		before := pod.DeepCopy()
		past := lifecycle.PastActiveDeadline(pod, now)
		e := lifecycle.DeadlineEviction(pod, now)
		if e.Evict != past || past != lifecycle.PastActiveDeadline(pod, now) {
			t.Fatalf("eviction %+v, past %v", e, past)
		}
		if past && (e.Reason != "DeadlineExceeded" || e.Message != "Pod was active on the node longer than the specified deadline") {
			t.Fatalf("%+v", e)
		}
		at, ok := lifecycle.ActiveDeadline(pod)
		if !ok && past {
			t.Fatal("past a deadline that does not exist")
		}
		if ok && past != !now.Before(at) {
			t.Fatalf("deadline %v, now %v, past %v", at, now, past)
		}
		if !reflect.DeepEqual(before, pod) {
			t.Fatal("input modified")
		}
	})
}
