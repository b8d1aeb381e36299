package defaults

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/kubernetes/pkg/util/parsers"

	"github.com/podlife/podlife"
	"github.com/podlife/podlife/conformance/internal/coverage"
	"github.com/podlife/podlife/conformance/internal/gatesets"
)

// imagesPerRun is the number of generated image references checked.
const imagesPerRun = 20000

// image builds a reference from pieces that sit on the edges of the grammar.
func (g *gen) image() string {
	hex := func(n int, upper bool) string {
		const digits = "0123456789abcdef"
		var b strings.Builder
		for i := 0; i < n; i++ {
			c := digits[g.n(16)]
			if upper && g.p(0.1) {
				c = strings.ToUpper(string(c))[0]
			}
			b.WriteByte(c)
		}
		return b.String()
	}
	if g.p(0.05) { // arbitrary bytes
		var b strings.Builder
		for i := g.n(20); i > 0; i-- {
			b.WriteByte("aA0:/@._-[]%é "[g.n(15)])
		}
		return b.String()
	}
	var s string
	if g.p(0.5) {
		s = pick(g, "docker.io/", "localhost/", "localhost:5000/", "Registry.Example/", "[::1]/", "[::1]:5000/", "a-b.c/",
			"index.docker.io/", "example.com:443/", "-bad.com/", "a.b.c.d/", "UPPER/", "x_y/", "1.2.3.4:80/")
	}
	for k := 1 + g.n(3); k > 0; k-- {
		if k > 1 || g.p(0.3) {
			s += pick(g, "library/", "ns/", "a__b/", "a-b/", "a.b/", "A/", "a___b/", "a--b/", "_a/", "a./")
		}
		s += pick(g, "nginx", "busybox", "x", "a__b", "a___b", "A", "a.b", "a-", "-a", "a--b", "a_b", strings.Repeat("b", 60+g.n(200)), hex(64, false), hex(63, false))
	}
	if g.p(0.5) {
		s += ":" + pick(g, "latest", "v1", "-x", strings.Repeat("t", 127+g.n(3)), "LATEST", "", "1.2_3-rc.4", "lat est", "latest ")
	}
	if g.p(0.4) {
		alg := pick(g, "sha256", "sha384", "sha512", "md5", "SHA256", "sha256+b64", "")
		n := map[string]int{"sha256": 64, "sha384": 96, "sha512": 128}[alg]
		if n == 0 || g.p(0.2) {
			n = pick(g, 31, 32, 64, 65)
		}
		s += "@" + alg + ":" + hex(n, g.p(0.2))
	}
	if g.p(0.05) {
		s = hex(64, false)
	}
	return s
}

func upstreamPullPolicy(image string) corev1.PullPolicy {
	if _, tag, _, _ := parsers.ParseImageName(image); tag == "latest" {
		return corev1.PullAlways
	}
	return corev1.PullIfNotPresent
}

// TestImagePullPolicyMatchesUpstream compares the imagePullPolicy Default gives a
// container with SetDefaults_Container's choice through upstream's image parser, under
// the standard gate sets (the choice reads no gate; Default runs with each set).
func TestImagePullPolicyMatchesUpstream(t *testing.T) {
	s := seed(t)
	t.Logf("seed %d (override with PODLIFE_SEED)", s)
	gatesets.Run(t, gatesets.Standard(), func(t *testing.T, set gatesets.Set) { imagePullPolicies(t, s, set) })
}

func imagePullPolicies(t *testing.T, s uint64, set gatesets.Set) {
	opts := podlife.DefaultOptions{Features: set.Features()}
	g := newGen(s + 4000)
	always, fails := 0, 0
	for i := 0; i < imagesPerRun; i++ {
		img := g.image()
		want := upstreamPullPolicy(img)
		got := podlife.DefaultWithOptions(&corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: img}}}}, opts).Spec.Containers[0].ImagePullPolicy
		if got != want {
			fails++
			t.Errorf("image %q: podlife %s, upstream %s", img, got, want)
			if fails > 10 {
				t.FailNow()
			}
		}
		if want == corev1.PullAlways {
			always++
		}
	}
	t.Logf("%d image references, %d pulled Always, %d disagreements", imagesPerRun, always, fails)
	coverage.RequireShare(t, "images pulled Always", always, imagesPerRun, 0.05)
	coverage.RequireShare(t, "images pulled IfNotPresent", imagesPerRun-always, imagesPerRun, 0.05)
}
