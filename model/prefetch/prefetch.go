// Package prefetch asks the processor to bring a line of memory into its
// caches ahead of its use. It is a hint: it changes no result, and never
// faults, whatever the address.
package prefetch
