/// ReLU and dropout: the same on every layout.
enum ReLU {
    static func forward(_ x: UnsafePointer<Float>, count: Int, y: UnsafeMutablePointer<Float>) {
        for t in 0..<count { y[t] = max(x[t], 0) }
    }

    /// Reads the forward output: where it is zero the input was not positive.
    static func backward(_ dy: UnsafePointer<Float>, y: UnsafePointer<Float>, count: Int, dx: UnsafeMutablePointer<Float>) {
        for t in 0..<count { dx[t] = y[t] > 0 ? dy[t] : 0 }
    }
}

/// Inverted dropout: at training time each value is kept with probability
/// `1 - rate` and scaled by `1 / (1 - rate)`, so inference is the identity.
enum Dropout {
    static func forward(_ x: UnsafePointer<Float>, count: Int, rate: Float, mask: UnsafeMutablePointer<Float>,
                        generator: inout SeededGenerator, y: UnsafeMutablePointer<Float>) {
        let keep = 1 / (1 - rate)
        for t in 0..<count {
            mask[t] = generator.unitFloat() < rate ? 0 : keep
            y[t] = x[t] * mask[t]
        }
    }

    static func backward(_ dy: UnsafePointer<Float>, mask: UnsafePointer<Float>, count: Int, dx: UnsafeMutablePointer<Float>) {
        for t in 0..<count { dx[t] = dy[t] * mask[t] }
    }
}
