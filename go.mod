module qcnlab

go 1.26.8

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/rogpeppe/go-internal v1.16.0
	golang.org/x/term v0.47.0
)

require (
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/tools v0.26.0 // indirect
)
