package cuda

import (
	"errors"
	"reflect"
	"testing"
	"unsafe"
)

// TestEveryMethodOfNilAndDeadValues calls every exported method of Device,
// Buffer, Stream, Event, HostBuffer and Graph, with zero arguments, on nil
// values and on closed, freed or destroyed ones: methods with an error result must return an
// error, accessors a zero value, and none may panic. No GPU is needed: every
// call must fail before it reaches CUDA.
func TestEveryMethodOfNilAndDeadValues(t *testing.T) {
	// Accessors whose value for a nil receiver is not the zero value.
	nilValue := map[string]any{"Device.Ordinal": -1}
	for _, tc := range []struct {
		name string
		recv any
		dead bool // not nil: closed, freed or destroyed, so errors match ErrClosed
	}{
		{"nil *Device", (*Device)(nil), false},
		{"nil *Buffer", (*Buffer)(nil), false},
		{"nil *Stream", (*Stream)(nil), false},
		{"nil *Event", (*Event)(nil), false},
		{"nil *HostBuffer", (*HostBuffer)(nil), false},
		{"nil *Graph", (*Graph)(nil), false},
		{"closed Device", &Device{ordinal: 3, closed: true}, true},
		{"freed Buffer", &Buffer{}, true},
		{"destroyed Stream", &Stream{dev: &Device{}}, true},
		{"destroyed Event", &Event{dev: &Device{}}, true},
		{"freed HostBuffer", &HostBuffer{}, true},
		{"destroyed Graph", &Graph{dev: &Device{}}, true},
	} {
		v := reflect.ValueOf(tc.recv)
		typ := v.Type().Elem().Name()
		if v.NumMethod() == 0 {
			t.Fatalf("%s has no exported methods", tc.name)
		}
		for i := 0; i < v.NumMethod(); i++ {
			m := v.Type().Method(i)
			name := typ + "." + m.Name
			t.Run(tc.name+"/"+m.Name, func(t *testing.T) {
				args := make([]reflect.Value, m.Type.NumIn()-1)
				for j := range args {
					args[j] = reflect.Zero(m.Type.In(j + 1))
				}
				var out []reflect.Value
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Fatalf("%s panicked: %v", name, r)
						}
					}()
					out = v.Method(i).Call(args)
				}()
				errType := reflect.TypeFor[error]()
				for _, o := range out {
					switch {
					case o.Type() == errType:
						err, _ := o.Interface().(error)
						if err == nil {
							t.Fatalf("%s returned no error", name)
						}
						if tc.dead && !errors.Is(err, ErrClosed) {
							t.Errorf("%s = %v, which does not match ErrClosed", name, err)
						}
					case tc.dead:
						// Accessors of a closed Device still describe it.
					case nilValue[name] != nil:
						if o.Interface() != nilValue[name] {
							t.Errorf("%s = %v, want %v", name, o.Interface(), nilValue[name])
						}
					case !o.IsZero():
						t.Errorf("%s = %v, want the zero value", name, o.Interface())
					}
				}
			})
		}
	}
}

// half stands for an fp16 type defined on uint16: copies must accept it.
type half uint16

// TestFunctionsOnNilAndDeadValues covers the package's functions that take
// buffers and events.
func TestFunctionsOnNilAndDeadValues(t *testing.T) {
	freed, dead, freedHost := &Buffer{}, &Event{dev: &Device{}}, &HostBuffer{}
	for name, call := range map[string]func() error{
		"CopyFromHost nil":        func() error { return CopyFromHost((*Buffer)(nil), []float32{1}) },
		"CopyFromHost freed":      func() error { return CopyFromHost(freed, []half{1}) },
		"CopyFromHostAt nil":      func() error { return CopyFromHostAt((*Buffer)(nil), 0, []int8{1}) },
		"CopyFromHost empty":      func() error { return CopyFromHost(freed, []uint64{}) },
		"CopyToHost nil":          func() error { return CopyToHost([]float64{1}, (*Buffer)(nil)) },
		"CopyToHost freed":        func() error { return CopyToHost(make([]float32, 1), freed) },
		"CopyToHostAt freed":      func() error { return CopyToHostAt([]complex64{1}, freed, 0) },
		"Copy nil":                func() error { return Copy(nil, nil, 0, nil, 0, 0) },
		"Copy freed":              func() error { return Copy(&Stream{}, freed, 0, freed, 0, 0) },
		"Elapsed nil":             func() error { _, err := Elapsed(nil, nil); return err },
		"Elapsed destroyed":       func() error { _, err := Elapsed(dead, dead); return err },
		"Elapsed nil end":         func() error { _, err := Elapsed(dead, nil); return err },
		"residentDevice of freed": func() error { _, err := freed.residentDevice(); return err },
		"CopyToDeviceAsync nil":   func() error { return CopyToDeviceAsync(nil, nil, 0, nil, 0, 0) },
		"CopyToDeviceAsync freed": func() error { return CopyToDeviceAsync(nil, freed, 0, freedHost, 0, 0) },
		"CopyToHostAsync nil":     func() error { return CopyToHostAsync(nil, nil, 0, nil, 0, 0) },
		"CopyToHostAsync freed":   func() error { return CopyToHostAsync(nil, freedHost, 0, freed, 0, 0) },
		"Sweep nil":               func() error { return Sweep(nil, nil, 0, 0, nil) },
		"Sweep freed":             func() error { return Sweep(nil, freed, 0, 0, freed) },
	} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s panicked: %v", name, r)
				}
			}()
			if call() == nil {
				t.Errorf("%s returned no error", name)
			}
		}()
	}
	if (*Stream)(nil).Handle() != unsafe.Pointer(nil) {
		t.Error("a nil *Stream is the default stream: its handle is nil")
	}
}
