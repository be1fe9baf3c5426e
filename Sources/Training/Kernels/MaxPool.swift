/// Max pooling with a square window and stride equal to its size, on spatial
/// values; remembers which input won each window for the backward pass.
enum MaxPool {
    static func forward(_ x: UnsafePointer<Float>, input: FeatureShape, batch: Int, size s: Int,
                        winners: UnsafeMutablePointer<Int32>, y: UnsafeMutablePointer<Float>) {
        let (h, w) = (input.height, input.width)
        let (ho, wo) = (h / s, w / s)
        for plane in 0..<(input.channels * batch) {
            let xs = x + plane * h * w
            let ys = y + plane * ho * wo
            let ws = winners + plane * ho * wo
            for oy in 0..<ho {
                for ox in 0..<wo {
                    var best = oy * s * w + ox * s
                    var value = xs[best]
                    for i in 0..<s {
                        for j in 0..<s {
                            let index = (oy * s + i) * w + ox * s + j
                            if xs[index] > value { value = xs[index]; best = index }
                        }
                    }
                    ys[oy * wo + ox] = value
                    ws[oy * wo + ox] = Int32(best)
                }
            }
        }
    }

    static func backward(_ dy: UnsafePointer<Float>, input: FeatureShape, batch: Int, size s: Int,
                         winners: UnsafePointer<Int32>, dx: UnsafeMutablePointer<Float>) {
        let (h, w) = (input.height, input.width)
        let outputs = (h / s) * (w / s)
        dx.update(repeating: 0, count: input.channels * batch * h * w)
        for plane in 0..<(input.channels * batch) {
            let dxs = dx + plane * h * w
            for o in 0..<outputs {
                dxs[Int(winners[plane * outputs + o])] += dy[plane * outputs + o]
            }
        }
    }
}
