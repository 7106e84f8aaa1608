module github.com/vigil-dev/vigil/clients/go

go 1.19
