import COpenBLAS

/// Stride-1 convolution with a square kernel and zero padding, on spatial
/// values `[C, N, H, W]`, as one matrix product over the whole batch:
/// `y[Cout, N*Ho*Wo] = w[Cout, Cin*k*k] x col[Cin*k*k, N*Ho*Wo]`.
enum Convolution {
    struct Geometry {
        var input: FeatureShape
        var output: FeatureShape
        var kernel: Int
        var padding: Int
        var batch: Int
        var columns: Int { batch * output.height * output.width }
        var rows: Int { input.channels * kernel * kernel }
    }

    /// `col[(c*k + i)*k + j][n, y, x] = x[c, n, y + i - p, x + j - p]`, zero outside.
    static func im2col(_ x: UnsafePointer<Float>, _ g: Geometry, _ col: UnsafeMutablePointer<Float>) {
        let (h, w, ho, wo, k, p) = (g.input.height, g.input.width, g.output.height, g.output.width, g.kernel, g.padding)
        let plane = ho * wo
        for c in 0..<g.input.channels {
            for i in 0..<k {
                for j in 0..<k {
                    let row = col + ((c * k + i) * k + j) * g.columns
                    let lo = max(0, p - j), hi = min(wo, w + p - j)
                    for b in 0..<g.batch {
                        let source = x + (c * g.batch + b) * h * w
                        for y in 0..<ho {
                            let destination = row + b * plane + y * wo
                            let sy = y + i - p
                            guard sy >= 0, sy < h, hi > lo else {
                                destination.update(repeating: 0, count: wo)
                                continue
                            }
                            if lo > 0 { destination.update(repeating: 0, count: lo) }
                            if hi < wo { (destination + hi).update(repeating: 0, count: wo - hi) }
                            (destination + lo).update(from: source + sy * w + lo + j - p, count: hi - lo)
                        }
                    }
                }
            }
        }
    }

    /// The adjoint of `im2col`: `dx` (zeroed here) gathers every column entry
    /// back to the input pixel it was copied from.
    static func col2im(_ col: UnsafePointer<Float>, _ g: Geometry, _ dx: UnsafeMutablePointer<Float>) {
        let (h, w, ho, wo, k, p) = (g.input.height, g.input.width, g.output.height, g.output.width, g.kernel, g.padding)
        let plane = ho * wo
        dx.update(repeating: 0, count: g.input.channels * g.batch * h * w)
        for c in 0..<g.input.channels {
            for i in 0..<k {
                for j in 0..<k {
                    let row = col + ((c * k + i) * k + j) * g.columns
                    let lo = max(0, p - j), hi = min(wo, w + p - j)
                    guard hi > lo else { continue }
                    for b in 0..<g.batch {
                        let target = dx + (c * g.batch + b) * h * w
                        for y in 0..<ho {
                            let sy = y + i - p
                            guard sy >= 0, sy < h else { continue }
                            let source = row + b * plane + y * wo + lo
                            let destination = target + sy * w + lo + j - p
                            for t in 0..<(hi - lo) { destination[t] += source[t] }
                        }
                    }
                }
            }
        }
    }

    static func forward(_ x: UnsafePointer<Float>, _ g: Geometry, weight: UnsafePointer<Float>,
                        bias: UnsafePointer<Float>?, col: UnsafeMutablePointer<Float>, y: UnsafeMutablePointer<Float>) {
        BLASThreads.useCallingThreadOnly()
        im2col(x, g, col)
        let cout = g.output.channels
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, Int32(cout), Int32(g.columns), Int32(g.rows),
                    1, weight, Int32(g.rows), col, Int32(g.columns), 0, y, Int32(g.columns))
        if let bias {
            for o in 0..<cout {
                let row = y + o * g.columns
                let b = bias[o]
                for t in 0..<g.columns { row[t] += b }
            }
        }
    }

    /// Writes the weight (and bias) gradient and, when `dx` is given, the
    /// input gradient; `dcol` is scratch of the size of `col`.
    static func backward(_ dy: UnsafePointer<Float>, _ g: Geometry, weight: UnsafePointer<Float>,
                         col: UnsafePointer<Float>, dcol: UnsafeMutablePointer<Float>,
                         dWeight: UnsafeMutablePointer<Float>, dBias: UnsafeMutablePointer<Float>?,
                         dx: UnsafeMutablePointer<Float>?) {
        BLASThreads.useCallingThreadOnly()
        let cout = g.output.channels
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, Int32(cout), Int32(g.rows), Int32(g.columns),
                    1, dy, Int32(g.columns), col, Int32(g.columns), 0, dWeight, Int32(g.rows))
        if let dBias {
            for o in 0..<cout {
                let row = dy + o * g.columns
                var sum: Float = 0
                for t in 0..<g.columns { sum += row[t] }
                dBias[o] = sum
            }
        }
        if let dx {
            cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, Int32(g.rows), Int32(g.columns), Int32(cout),
                        1, weight, Int32(g.rows), dy, Int32(g.columns), 0, dcol, Int32(g.columns))
            col2im(dcol, g, dx)
        }
    }
}
