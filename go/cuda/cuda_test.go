package cuda

import (
	"errors"
	"testing"
)

// These run everywhere: with no GPU they check that the API fails with
// errors, never panics or exits; with one they check the device opens.
func TestOpenReportsNoDeviceAsAnError(t *testing.T) {
	d, err := Open(0)
	if err != nil {
		if !errors.Is(err, ErrNoDevice) {
			t.Logf("Open failed with a non-ErrNoDevice error (a GPU that cannot be used?): %v", err)
		}
		if d != nil {
			t.Fatal("Open returned a device along with an error")
		}
		return
	}
	defer d.Close()
	if d.Info().CC() == 0 || d.Info().Name == "" {
		t.Fatalf("device info incomplete: %+v", d.Info())
	}
	if _, err := Open(1 << 20); err == nil {
		t.Fatal("Open of a device ordinal that does not exist succeeded")
	}
}

func TestNilAndFreedHandlesReturnErrors(t *testing.T) {
	var d *Device
	if _, err := d.Alloc(16); err == nil {
		t.Fatal("Alloc on a nil *Device succeeded")
	}
	var b *Buffer
	if err := b.Free(); err == nil {
		t.Fatal("Free of a nil *Buffer succeeded")
	}
	if err := CopyFromHost(b, []float32{1}); err == nil {
		t.Fatal("copy into a nil *Buffer succeeded")
	}
	if err := CopyToHost(make([]float32, 1), &Buffer{}); err == nil {
		t.Fatal("copy from a freed Buffer succeeded")
	}
	var s *Stream
	if err := s.Destroy(); err == nil {
		t.Fatal("Destroy of a nil *Stream succeeded")
	}
	var e *Event
	if err := e.Destroy(); err == nil {
		t.Fatal("Destroy of a nil *Event succeeded")
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
