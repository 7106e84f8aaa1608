module github.com/vigil-dev/vigil/middleware/go

go 1.19

require gopkg.in/yaml.v3 v3.0.1

// Debian's golang-gopkg-yaml.v3-dev: the build never downloads anything (GOPROXY=off).
replace gopkg.in/yaml.v3 => /usr/share/gocode/src/gopkg.in/yaml.v3
