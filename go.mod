module github.com/ringscope/ringscope

go 1.26.8

require (
	github.com/gowebapi/webapi v0.0.0-20221221115732-41cedfc27a0b
	github.com/stretchr/testify v1.12.1
	github.com/vugu/vugu v0.4.0
)

require (
	github.com/vugu/html v0.0.0-20190914200101-c62dc20b8289 // indirect
	github.com/vugu/xxhash v0.0.0-20191111030615-ed24d0179019 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
)

tool github.com/vugu/vugu/cmd/vugugen
