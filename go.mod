module github.com/kgen-gpu/kgen

go 1.24.0

require (
	github.com/klauspost/reedsolomon v1.14.2
	github.com/stretchr/testify v1.11.1
	github.com/x448/float16 v0.8.4
	gonum.org/v1/gonum v0.16.0
	gopkg.in/yaml.v3 v3.0.1
	gorgonia.org/cu v0.9.6
)

require (
	github.com/davecgh/go-spew v1.1.1 // indirect
	github.com/google/uuid v1.1.1 // indirect
	github.com/klauspost/cpuid/v2 v2.3.0 // indirect
	github.com/pkg/errors v0.9.1 // indirect
	github.com/pmezard/go-difflib v1.0.0 // indirect
	golang.org/x/sys v0.30.0 // indirect
)
