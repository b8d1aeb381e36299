package resources

import "k8s.io/component-base/featuregate"

func featureName(s string) featuregate.Feature { return featuregate.Feature(s) }
