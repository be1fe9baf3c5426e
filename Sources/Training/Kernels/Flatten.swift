/// From spatial `[C, N, H, W]` to flat `[N, C*H*W]`, each example's features
/// in PyTorch's order (channel, row, column), so a dense weight trained here
/// means the same as one trained there.
enum Flatten {
    static func forward(_ x: UnsafePointer<Float>, input: FeatureShape, batch: Int, y: UnsafeMutablePointer<Float>) {
        let plane = input.height * input.width
        for c in 0..<input.channels {
            for b in 0..<batch {
                (y + b * input.count + c * plane).update(from: x + (c * batch + b) * plane, count: plane)
            }
        }
    }

    static func backward(_ dy: UnsafePointer<Float>, input: FeatureShape, batch: Int, dx: UnsafeMutablePointer<Float>) {
        let plane = input.height * input.width
        for c in 0..<input.channels {
            for b in 0..<batch {
                (dx + (c * batch + b) * plane).update(from: dy + b * input.count + c * plane, count: plane)
            }
        }
    }
}
