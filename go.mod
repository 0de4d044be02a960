module qcnlab

go 1.26.8

require (
	github.com/BurntSushi/toml v1.6.0
	go.uber.org/goleak v1.3.0
	golang.org/x/term v0.47.0
)

require golang.org/x/sys v0.49.0 // indirect
