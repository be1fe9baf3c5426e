/// A float32 tensor: a shape and its values, contiguous and row-major.
///
/// The shape's last dimension varies fastest, so an `[N, C, H, W]` image batch
/// stores `x[n, c, h, w]` at `((n * C + c) * H + h) * W + w`.
public struct NDArray: Sendable, Equatable {
    public private(set) var shape: [Int]
    public var scalars: [Float]

    public init(shape: [Int], scalars: [Float]) {
        precondition(shape.allSatisfy { $0 >= 0 }, "negative dimension in \(shape)")
        precondition(shape.reduce(1, *) == scalars.count,
                     "shape \(shape) holds \(shape.reduce(1, *)) values, got \(scalars.count)")
        self.shape = shape
        self.scalars = scalars
    }

    public init(shape: [Int], repeating value: Float = 0) {
        self.init(shape: shape, scalars: Array(repeating: value, count: shape.reduce(1, *)))
    }

    /// Copies `count` values from a buffer, for callers that hold raw memory.
    public init(shape: [Int], copying buffer: UnsafeBufferPointer<Float>) {
        self.init(shape: shape, scalars: Array(buffer))
    }

    public var count: Int { scalars.count }
    public var rank: Int { shape.count }

    /// The offset of a multi-index in `scalars`.
    public func offset(of index: [Int]) -> Int {
        precondition(index.count == shape.count, "index \(index) for shape \(shape)")
        var offset = 0
        for (i, dimension) in zip(index, shape) {
            precondition(i >= 0 && i < dimension, "index \(index) outside shape \(shape)")
            offset = offset * dimension + i
        }
        return offset
    }

    public subscript(_ index: Int...) -> Float {
        get { scalars[offset(of: index)] }
        set { scalars[offset(of: index)] = newValue }
    }

    /// The same values under another shape with the same count.
    public func reshaped(_ newShape: [Int]) -> NDArray {
        NDArray(shape: newShape, scalars: scalars)
    }

    /// The only value of a one-element array.
    public func item() -> Float {
        precondition(count == 1, "item() on an array of \(count) values")
        return scalars[0]
    }
}
