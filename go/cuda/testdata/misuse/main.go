// This program must not compile: copies between host and device take slices
// of fixed-size numbers only (cuda.Scalar). TestCopyRejectsPointerTypes
// builds it and checks that each line below is rejected.
package main

import "github.com/kgen-gpu/kgen/go/cuda"

type withPointer struct{ p *float32 }

func main() {
	_ = cuda.CopyFromHost(nil, []*float32{nil})        // misuse: pointers
	_ = cuda.CopyToHost([]string{""}, nil)             // misuse: strings hold pointers
	_ = cuda.CopyFromHostAt(nil, 0, []withPointer{{}}) // misuse: a struct holding a pointer
	_ = cuda.CopyToHostAt([]int{0}, nil, 0)            // misuse: int's size depends on the platform
	_ = cuda.CopyFromHost(nil, [][]float32{{1}})       // misuse: slices
}
