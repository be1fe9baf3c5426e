import COpenBLAS

/// A fully connected layer on flat values: `y[N, out] = x[N, in] w[out, in]^T + b`.
enum Dense {
    static func forward(_ x: UnsafePointer<Float>, batch: Int, inputs: Int, outputs: Int,
                        weight: UnsafePointer<Float>, bias: UnsafePointer<Float>, y: UnsafeMutablePointer<Float>) {
        BLASThreads.useCallingThreadOnly()
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, Int32(batch), Int32(outputs), Int32(inputs),
                    1, x, Int32(inputs), weight, Int32(inputs), 0, y, Int32(outputs))
        for b in 0..<batch {
            let row = y + b * outputs
            for o in 0..<outputs { row[o] += bias[o] }
        }
    }

    static func backward(_ dy: UnsafePointer<Float>, x: UnsafePointer<Float>, batch: Int, inputs: Int, outputs: Int,
                         weight: UnsafePointer<Float>, dWeight: UnsafeMutablePointer<Float>,
                         dBias: UnsafeMutablePointer<Float>, dx: UnsafeMutablePointer<Float>?) {
        BLASThreads.useCallingThreadOnly()
        cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, Int32(outputs), Int32(inputs), Int32(batch),
                    1, dy, Int32(outputs), x, Int32(inputs), 0, dWeight, Int32(inputs))
        dBias.update(repeating: 0, count: outputs)
        for b in 0..<batch {
            let row = dy + b * outputs
            for o in 0..<outputs { dBias[o] += row[o] }
        }
        if let dx {
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, Int32(batch), Int32(inputs), Int32(outputs),
                        1, dy, Int32(outputs), weight, Int32(inputs), 0, dx, Int32(inputs))
        }
    }
}
