/// Batch normalisation per channel of spatial values `[C, N, H, W]`: each
/// channel's `N*H*W` values are one contiguous run.
enum BatchNorm {
    /// Training mode: normalise with the batch's own statistics, keep `xhat`
    /// and `1/sqrt(var + eps)` for the backward pass, report mean and (biased)
    /// variance for the running statistics.
    static func forwardTraining(_ x: UnsafePointer<Float>, channels: Int, run m: Int, epsilon: Float,
                                gamma: UnsafePointer<Float>, beta: UnsafePointer<Float>,
                                xhat: UnsafeMutablePointer<Float>, inverseStd: UnsafeMutablePointer<Float>,
                                mean: UnsafeMutablePointer<Float>, variance: UnsafeMutablePointer<Float>,
                                y: UnsafeMutablePointer<Float>) {
        for c in 0..<channels {
            let xs = x + c * m, hs = xhat + c * m, ys = y + c * m
            var sum: Float = 0
            for t in 0..<m { sum += xs[t] }
            let mu = sum / Float(m)
            var squares: Float = 0
            for t in 0..<m { let d = xs[t] - mu; squares += d * d }
            let v = squares / Float(m)
            let inv = 1 / (v + epsilon).squareRoot()
            let (g, b) = (gamma[c], beta[c])
            for t in 0..<m {
                let n = (xs[t] - mu) * inv
                hs[t] = n
                ys[t] = g * n + b
            }
            mean[c] = mu
            variance[c] = v
            inverseStd[c] = inv
        }
    }

    /// Inference mode: the running statistics.
    static func forwardInference(_ x: UnsafePointer<Float>, channels: Int, run m: Int, epsilon: Float,
                                 gamma: UnsafePointer<Float>, beta: UnsafePointer<Float>,
                                 runningMean: UnsafePointer<Float>, runningVariance: UnsafePointer<Float>,
                                 y: UnsafeMutablePointer<Float>) {
        for c in 0..<channels {
            let scale = gamma[c] / (runningVariance[c] + epsilon).squareRoot()
            let shift = beta[c] - runningMean[c] * scale
            let xs = x + c * m, ys = y + c * m
            for t in 0..<m { ys[t] = xs[t] * scale + shift }
        }
    }

    /// After an inference-mode forward, with the scale and shift held
    /// fixed: `dx = dy * gamma / sqrt(runningVariance + epsilon)`.
    static func backwardInference(_ dy: UnsafePointer<Float>, channels: Int, run m: Int, epsilon: Float,
                                  gamma: UnsafePointer<Float>, runningVariance: UnsafePointer<Float>,
                                  dx: UnsafeMutablePointer<Float>) {
        for c in 0..<channels {
            let scale = gamma[c] / (runningVariance[c] + epsilon).squareRoot()
            let ds = dy + c * m, dxs = dx + c * m
            for t in 0..<m { dxs[t] = ds[t] * scale }
        }
    }

    /// `dx = gamma * invstd / m * (m * dy - sum(dy) - xhat * sum(dy * xhat))`.
    static func backward(_ dy: UnsafePointer<Float>, channels: Int, run m: Int,
                         gamma: UnsafePointer<Float>, xhat: UnsafePointer<Float>, inverseStd: UnsafePointer<Float>,
                         dGamma: UnsafeMutablePointer<Float>, dBeta: UnsafeMutablePointer<Float>,
                         dx: UnsafeMutablePointer<Float>) {
        for c in 0..<channels {
            let ds = dy + c * m, hs = xhat + c * m, dxs = dx + c * m
            var sumDy: Float = 0, sumDyXhat: Float = 0
            for t in 0..<m {
                sumDy += ds[t]
                sumDyXhat += ds[t] * hs[t]
            }
            dGamma[c] = sumDyXhat
            dBeta[c] = sumDy
            let k = gamma[c] * inverseStd[c] / Float(m)
            let mf = Float(m)
            for t in 0..<m { dxs[t] = k * (mf * ds[t] - sumDy - hs[t] * sumDyXhat) }
        }
    }
}
