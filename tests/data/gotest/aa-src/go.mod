module example.com/aa

go 1.19
