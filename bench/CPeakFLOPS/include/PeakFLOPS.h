// Measures this CPU's single-core float32 peak with a loop of independent
// fused multiply-adds, for the inference benchmark's "% of peak" column.
#ifndef PEAK_FLOPS_H
#define PEAK_FLOPS_H
// GFLOP/s of one thread running `iterations` rounds of 24 independent FMAs on
// the widest vectors the CPU has (AVX-512, else AVX2+FMA, else scalar).
double peak_gflops(long iterations);
// The vector width in floats that peak_gflops used.
int peak_vector_width(void);
#endif
