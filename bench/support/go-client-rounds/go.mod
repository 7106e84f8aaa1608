module vigil-bench/go-client-rounds

go 1.19

require github.com/vigil-dev/vigil/clients/go v0.0.0

replace github.com/vigil-dev/vigil/clients/go => ../../../clients/go
