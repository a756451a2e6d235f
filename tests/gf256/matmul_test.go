package gf256test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kgen-gpu/kgen/go/cuda"
	"github.com/kgen-gpu/kgen/go/gf256"
	"github.com/kgen-gpu/kgen/go/rs"
	"github.com/kgen-gpu/kgen/internal/compare"
	"github.com/kgen-gpu/kgen/internal/gputest"
)

var (
	dev    *cuda.Device
	eng    *gf256.Engine
	devErr error
)

func TestMain(m *testing.M) {
	dev, devErr = cuda.Open(0)
	if devErr == nil {
		eng, devErr = gf256.New(dev)
	}
	code := m.Run()
	if eng != nil {
		eng.Close()
	}
	if dev != nil {
		dev.Close()
	}
	os.Exit(code)
}

func needGPU(t *testing.T) {
	t.Helper()
	gputest.NeedDevice(t, devErr, cuda.ErrNoDevice)
}

// guard is the byte count around every shard, and poison the value it and
// every output hold before a run (the product of random data is rarely it
// everywhere, and a check against the reference catches what is).
const (
	guard  = 64
	poison = 0xA7
)

// shape is one product: rows outputs from k inputs of n bytes, each shard at
// byte offset off into its own buffer (after the guard), so off breaks
// 4- and 16-byte alignment.
type shape struct{ rows, k, n, off int }

var shapes = []shape{
	{1, 1, 1, 0}, {1, 1, 0, 0}, {2, 4, 3, 1}, {4, 10, 15, 0}, {4, 10, 16, 0}, {4, 10, 17, 3},
	{3, 17, 4097, 5}, {8, 32, 4096, 0}, {4, 10, 1<<20 + 3, 0}, {4, 10, 1 << 20, 7}, {56, 200, 1000, 2},
	{1, 256, 513, 1}, {255, 1, 77, 0},
	// The most shards whose pointers a launch carries itself, and one more,
	// which go through a staging slot instead.
	{32, 32, 4099, 0}, {8, 57, 4099, 1},
}

// product uploads random inputs and poisoned outputs, runs instance name (""
// for the engine's choice), and compares with rs.MatMulRef bit for bit,
// including the guard bytes around every output.
func product(t *testing.T, name string, sh shape, accumulate bool, rng *rand.Rand) {
	t.Helper()
	coeffs := make([]byte, sh.rows*sh.k)
	for i := range coeffs {
		coeffs[i] = byte(rng.IntN(256))
	}
	host := func(fill func() byte) []byte {
		b := make([]byte, guard+sh.off+sh.n+guard)
		for i := range b {
			b[i] = fill()
		}
		return b
	}
	upload := func(img []byte) *cuda.Buffer {
		buf, err := dev.Alloc(len(img))
		require.NoError(t, err)
		t.Cleanup(func() { buf.Free() })
		require.NoError(t, cuda.CopyFromHost(buf, img))
		return buf
	}
	random := func() byte { return byte(rng.IntN(256)) }
	in := make([]gf256.Shard, sh.k)
	inData := make([][]byte, sh.k)
	for j := range in {
		img := host(random)
		in[j] = gf256.Shard{Buf: upload(img), Off: guard + sh.off}
		inData[j] = img[guard+sh.off : guard+sh.off+sh.n]
	}
	out := make([]gf256.Shard, sh.rows)
	outImg := make([][]byte, sh.rows)
	want := make([][]byte, sh.rows)
	for r := range out {
		outImg[r] = host(func() byte { return poison })
		if accumulate {
			for i := guard + sh.off; i < guard+sh.off+sh.n; i++ {
				outImg[r][i] = random() // existing parity to XOR into
			}
		}
		out[r] = gf256.Shard{Buf: upload(outImg[r]), Off: guard + sh.off}
		want[r] = bytes.Clone(outImg[r])
	}
	wantOut := make([][]byte, sh.rows)
	for r := range wantOut {
		wantOut[r] = want[r][guard+sh.off : guard+sh.off+sh.n]
	}
	rs.MatMulRef(coeffs, sh.rows, sh.k, inData, wantOut, accumulate)

	require.NoError(t, eng.MatMulWith(name, nil, coeffs, in, out, sh.n, accumulate))
	require.NoError(t, dev.Synchronize())
	for r := range out {
		got := make([]byte, len(outImg[r]))
		require.NoError(t, cuda.CopyToHost(got, out[r].Buf))
		if i := compare.FirstDiff(got, want[r]); i >= 0 { // GF(2^8) is exact
			where := "inside the shard"
			if i < guard+sh.off || i >= guard+sh.off+sh.n {
				where = "OUTSIDE the shard (guard or offset bytes)"
			}
			t.Fatalf("output %d: byte %d (%s) = %#02x, want %#02x", r, i-guard-sh.off, where, got[i], want[r][i])
		}
	}
}

// TestEveryInstanceBitExact runs every instance built for the device on every
// shape, overwriting and accumulating, and requires that all of them ran.
func TestEveryInstanceBitExact(t *testing.T) {
	needGPU(t)
	rng := rand.New(rand.NewPCG(7, 11))
	tested := map[string]bool{}
	for _, in := range eng.Instances() {
		for _, sh := range shapes {
			if testing.Short() && sh.n > 1<<13 {
				continue // -short: the small odd shapes, for compute-sanitizer
			}
			for _, acc := range []bool{false, true} {
				name := fmt.Sprintf("%s/%dx%d/n=%d/off=%d/acc=%v", in.Name, sh.rows, sh.k, sh.n, sh.off, acc)
				t.Run(name, func(t *testing.T) {
					product(t, in.Name, sh, acc, rng)
					tested[in.Name] = true
				})
			}
		}
	}
	cc, _ := eng.Arch()
	want := 0
	for _, in := range gf256.BuiltInstances() {
		if in.Arch == cc {
			want++
		}
	}
	if want == 0 || len(tested) != want {
		t.Fatalf("%d instances passed on sm_%d, the generated table has %d", len(tested), cc, want)
	}
}

// TestDefaultChoice runs the engine's own choice, which is what users get.
func TestDefaultChoice(t *testing.T) {
	needGPU(t)
	rng := rand.New(rand.NewPCG(3, 5))
	for _, sh := range shapes {
		if testing.Short() && sh.n > 1<<13 {
			continue
		}
		product(t, "", sh, false, rng)
	}
}

// TestBadInputIsAnError: each case returns an error and writes nothing.
func TestBadInputIsAnError(t *testing.T) {
	needGPU(t)
	buf, err := dev.Alloc(64)
	require.NoError(t, err)
	defer buf.Free()
	other, err := dev.Alloc(64)
	require.NoError(t, err)
	defer other.Free()
	one := []gf256.Shard{{Buf: buf}}
	for name, call := range map[string]func() error{
		"past the end":    func() error { return eng.MatMul(nil, []byte{1}, one, []gf256.Shard{{Buf: other, Off: 1}}, 64, false) },
		"output overlaps": func() error { return eng.MatMul(nil, []byte{1}, one, []gf256.Shard{{Buf: buf, Off: 32}}, 33, false) },
		"outputs overlap": func() error {
			return eng.MatMul(nil, []byte{1, 1}, one, []gf256.Shard{{Buf: other}, {Buf: other, Off: 8}}, 16, false)
		},
		"no instance": func() error {
			return eng.MatMulWith("gf_nonesuch", nil, []byte{1}, one, []gf256.Shard{{Buf: other}}, 8, false)
		},
		"wrong coefficients": func() error { return eng.MatMul(nil, []byte{1, 2}, one, []gf256.Shard{{Buf: other}}, 8, false) },
	} {
		if err := call(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestQueuedCallsKeepTheirOwnStaging queues many products on one stream
// without waiting between them, each with its own coefficients, inputs and
// outputs, and clears each call's coefficients as soon as it returns; every
// output must match its own product. 10+4 travels in the launches'
// parameters; 60+8 is past that limit and goes through the engine's staging
// slots, which it must reuse only once their launches are done.
func TestQueuedCallsKeepTheirOwnStaging(t *testing.T) {
	needGPU(t)
	for _, sh := range []struct{ rows, k int }{{4, 10}, {8, 60}} {
		t.Run(fmt.Sprintf("%d+%d", sh.k, sh.rows), func(t *testing.T) { queuedCalls(t, sh.rows, sh.k) })
	}
}

func queuedCalls(t *testing.T, rows, k int) {
	const calls, n = 24, 1<<16 + 5
	rng := rand.New(rand.NewPCG(13, uint64(17*k)))
	s, err := dev.NewStream()
	require.NoError(t, err)
	defer s.Destroy()
	alloc := func(fill []byte) gf256.Shard {
		buf, err := dev.Alloc(n)
		require.NoError(t, err)
		t.Cleanup(func() { buf.Free() })
		require.NoError(t, cuda.CopyFromHost(buf, fill))
		return gf256.Shard{Buf: buf}
	}
	random := func() []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		return b
	}
	want := make([][][]byte, calls)
	outs := make([][]gf256.Shard, calls)
	ins := make([][]gf256.Shard, calls)
	coeffs := make([][]byte, calls)
	for c := range calls {
		coeffs[c] = random()[:rows*k]
		inData := make([][]byte, k)
		for j := range inData {
			inData[j] = random()
			ins[c] = append(ins[c], alloc(inData[j]))
		}
		want[c] = make([][]byte, rows)
		for r := range want[c] {
			want[c][r] = make([]byte, n)
			outs[c] = append(outs[c], alloc(bytes.Repeat([]byte{poison}, n)))
		}
		rs.MatMulRef(coeffs[c], rows, k, inData, want[c], false)
	}
	for c := range calls {
		require.NoError(t, eng.MatMul(s, coeffs[c], ins[c], outs[c], n, false))
		clear(coeffs[c]) // the engine must have copied them
	}
	require.NoError(t, s.Synchronize())
	for c := range calls {
		for r, o := range outs[c] {
			requireBytes(t, o.Buf, want[c][r], fmt.Sprintf("call %d output %d", c, r))
		}
	}
}

// TestChainedCallsSeeEarlierOutputs queues products on one stream without
// waiting between them, each reading the shards the one before it wrote,
// and overwriting shards that the one before it read: A -> B, B -> A, then
// B accumulated from A, and so on. On sm_90 a kernel may start before the
// previous one finishes (programmatic dependent launch). A kernel that read
// its shards too early would fail this, but the window is short: with every
// griddepcontrol.wait removed it still passed on an H100 (3 runs), while
// hgemv's chained test failed 33 of 93 instances.
// 10+10 travels in the launches' parameters; 40+40 uses staging slots. A
// long product queued first keeps the GPU busy while the chain is queued,
// so the chain's kernels then run back to back rather than one per call.
// At 64 KiB a kernel runs on 8 blocks, and the next one's blocks find free
// SMs at once; at 2 MiB the grid fills the GPU and only its tail overlaps.
func TestChainedCallsSeeEarlierOutputs(t *testing.T) {
	needGPU(t)
	for _, c := range []struct{ k, n int }{{10, 64<<10 + 5}, {10, 2<<20 + 5}, {40, 64<<10 + 5}} {
		t.Run(fmt.Sprintf("%d+%d/%dB", c.k, c.k, c.n), func(t *testing.T) { chainedCalls(t, c.k, c.n) })
	}
}

func chainedCalls(t *testing.T, k, n int) {
	const calls = 12
	rng := rand.New(rand.NewPCG(29, uint64(k)))
	s, err := dev.NewStream()
	require.NoError(t, err)
	defer s.Destroy()
	// Two sets of k shards, their host images kept in step with the chain.
	sets := [2][]gf256.Shard{}
	host := [2][][]byte{}
	for h := range sets {
		for range k {
			img := make([]byte, n)
			for i := range img {
				img[i] = byte(rng.IntN(256))
			}
			buf, err := dev.Alloc(n)
			require.NoError(t, err)
			t.Cleanup(func() { buf.Free() })
			require.NoError(t, cuda.CopyFromHost(buf, img))
			sets[h] = append(sets[h], gf256.Shard{Buf: buf})
			host[h] = append(host[h], img)
		}
	}
	blockIn, blockOut := make([]gf256.Shard, 10), make([]gf256.Shard, 10)
	for _, sh := range [][]gf256.Shard{blockIn, blockOut} {
		for j := range sh {
			buf, err := dev.Alloc(16 << 20)
			require.NoError(t, err)
			t.Cleanup(func() { buf.Free() })
			sh[j] = gf256.Shard{Buf: buf}
		}
	}
	require.NoError(t, eng.MatMul(s, bytes.Repeat([]byte{7}, 100), blockIn, blockOut, 16<<20, false))
	for c := range calls {
		from, to := c%2, 1-c%2
		accumulate := c%3 == 2
		coeffs := make([]byte, k*k)
		for i := range coeffs {
			coeffs[i] = byte(rng.IntN(256))
		}
		require.NoError(t, eng.MatMul(s, coeffs, sets[from], sets[to], n, accumulate))
		rs.MatMulRef(coeffs, k, k, host[from], host[to], accumulate)
	}
	require.NoError(t, s.Synchronize())
	for h := range sets {
		for j, sh := range sets[h] {
			requireBytes(t, sh.Buf, host[h][j], fmt.Sprintf("set %d shard %d", h, j))
		}
	}
}

// requireBytes downloads the first len(want) bytes of buf and requires them
// to equal want exactly, naming what and the first byte that differs.
func requireBytes(t *testing.T, buf *cuda.Buffer, want []byte, what string) {
	t.Helper()
	got := make([]byte, len(want))
	require.NoError(t, cuda.CopyToHost(got, buf))
	if i := compare.FirstDiff(got, want); i >= 0 {
		t.Fatalf("%s: byte %d = %#02x, want %#02x", what, i, got[i], want[i])
	}
}
