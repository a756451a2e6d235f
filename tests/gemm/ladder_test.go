package gemmtest

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kgen-gpu/kgen/go/gemm"
)

// TestLadderPartialTilesOnTheVectorPath runs the SGEMM ladder's reference
// instances (TestEveryInstanceAgainstCPU covers them on the common shapes)
// where the vectorized step's 16-byte path meets partial tiles: leading
// dimensions that are multiples of 4 on aligned buffers, with M, N and K
// that are not multiples of any block tile (one M and N below a float4, one
// K below a k tile), and the same with rows padded by 4 so the row starts
// stay aligned; C is NaN-poisoned where beta is 0.
func TestLadderPartialTilesOnTheVectorPath(t *testing.T) {
	needGPU(t)
	var ladder []gemm.Instance
	for _, in := range tableInstances(t) {
		if in.Ladder != "" {
			ladder = append(ladder, in)
		}
	}
	if len(ladder) == 0 {
		t.Skip("no ladder instance in the spec")
	}
	tested := map[string]bool{}
	for _, sh := range []struct{ M, N, K int }{{132, 136, 20}, {260, 12, 36}, {3, 2, 4}, {129, 4, 4100}} {
		p := getProblem(sh.M, sh.N, sh.K)
		for _, st := range [][3]storage{
			{{order: gemm.RowMajor}, {order: gemm.RowMajor}, {order: gemm.RowMajor}},
			{{order: gemm.RowMajor, pad: 4, offset: 4}, {order: gemm.RowMajor, pad: 8}, {order: gemm.RowMajor, pad: 4, offset: 8}},
		} {
			o := place(t, p, st[0], st[1], st[2])
			for _, in := range ladder {
				for _, sc := range scalings {
					t.Run(fmt.Sprintf("%dx%dx%d/%s/A=%s,B=%s,C=%s/beta=%g", sh.M, sh.N, sh.K, in.Name, st[0], st[1], st[2], sc.beta), func(t *testing.T) {
						c := o.freshC(t, sc.beta)
						require.NoError(t, eng.SGEMMWith(in.Name, nil, sc.alpha, o.a, o.b, sc.beta, c))
						checkResult(t, o, sc.alpha, sc.beta, c, download(t, c))
					})
				}
				tested[in.Name] = true
			}
		}
	}
	requireCovered(t, tested, ladder)
}
