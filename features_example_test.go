package podlife_test

import (
	"fmt"

	"github.com/podlife/podlife"
)

// Overrides are checked with the API server's own rules and wording.
func ExampleFeatureGates_Validate() {
	gates := podlife.FeatureGates{"ContainerRestartRules": false}
	fmt.Println(gates.Validate())

	gates["RestartAllContainersOnContainerExits"] = false
	fmt.Println(gates.Validate())
	fmt.Println(gates.Enabled("ContainerRestartRules"), gates.Enabled("PodLevelResources"))

	fmt.Println(podlife.FeatureGates{"InPlacePodVerticalScaling": false}.Validate())
	// Output:
	// RestartAllContainersOnContainerExits is enabled, but depends on features that are disabled: [ContainerRestartRules]
	// <nil>
	// false true
	// cannot set feature gate InPlacePodVerticalScaling to false, feature is locked to true
}
