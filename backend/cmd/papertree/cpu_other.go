//go:build !unix

package main

import "time"

// processCPU is not measured here (bench query's CPU columns read 0).
func processCPU() time.Duration { return 0 }
