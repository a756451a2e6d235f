package cuda

import (
	"errors"
	"fmt"
	"testing"

	"github.com/kgen-gpu/kgen/internal/gputest"
)

// open opens device ordinal, or skips the test visibly where there is no GPU
// (fails it where KGEN_REQUIRE_GPU=1). A GPU that is there but cannot be
// opened fails the test.
func open(t *testing.T, ordinal int) *Device {
	t.Helper()
	d, err := Open(ordinal)
	if err != nil {
		if !errors.Is(err, ErrNoDevice) {
			t.Fatalf("Open(%d) failed with an error that is not ErrNoDevice: %v", ordinal, err)
		}
		gputest.Skip(t, "Open(%d): %v", ordinal, err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// TestOpen runs everywhere: without a GPU Open must fail with ErrNoDevice
// (and, with KGEN_REQUIRE_GPU=1, the test fails); with one it must open
// device 0 and read sane properties.
func TestOpen(t *testing.T) {
	d, err := Open(0)
	if err != nil {
		if d != nil {
			t.Error("Open returned a device along with an error")
		}
		if !errors.Is(err, ErrNoDevice) {
			t.Fatalf("Open(0) failed, and not with ErrNoDevice: %v", err)
		}
		if _, cerr := Count(); !errors.Is(cerr, ErrNoDevice) {
			t.Errorf("Open(0) reports no device, Count() = %v", cerr)
		}
		gputest.Skip(t, "Open(0) = %v, which matches ErrNoDevice as it must", err)
		return
	}
	defer d.Close()
	in := d.Info()
	t.Logf("device 0: %+v", in)
	if d.Ordinal() != 0 {
		t.Errorf("Ordinal() = %d, want 0", d.Ordinal())
	}
	if in.Name == "" || in.CC() < 30 || in.Multiprocessors <= 0 || in.TotalMemory <= 0 ||
		in.L2Bytes <= 0 || in.SmemOptIn <= 0 || in.DriverVersion <= 0 || in.RuntimeVersion <= 0 {
		t.Errorf("device info incomplete: %+v", in)
	}
	n, err := Count()
	if err != nil || n < 1 {
		t.Errorf("Count() = %d, %v after Open(0) succeeded", n, err)
	}
	for _, bad := range []int{-1, n, 1 << 20} {
		if _, err := Open(bad); err == nil {
			t.Errorf("Open(%d) of a device ordinal that does not exist succeeded", bad)
		}
	}
	if err := d.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := d.Close(); !errors.Is(err, ErrClosed) {
		t.Errorf("second Close = %v, want ErrClosed", err)
	}
	if _, err := d.Alloc(4); !errors.Is(err, ErrClosed) {
		t.Errorf("Alloc on a closed device = %v, want ErrClosed", err)
	}
}

func TestCheckNamesTheStatus(t *testing.T) {
	if Check("x", 0) != nil {
		t.Fatal("status 0 is success")
	}
	err := Check("launch", -2)
	if err == nil || err.Error() != "cuda: launch: a leading dimension is smaller than the stored row length (KGEN_ERR_LEADING_DIM, -2)" {
		t.Fatalf("Check(-2) = %v", err)
	}
	if !errors.Is(Check("count devices", 100), ErrNoDevice) {
		t.Fatal("cudaErrorNoDevice must match ErrNoDevice")
	}
}

func TestBuildToolkitNamesTheCompiler(t *testing.T) {
	v := BuildToolkit()
	var major, minor, build int
	if n, err := fmt.Sscanf(v, "%d.%d.%d", &major, &minor, &build); n != 3 || err != nil || major < 11 {
		t.Fatalf("BuildToolkit() = %q, want nvcc's major.minor.build (11 or newer)", v)
	}
}
