/// A binary image (garment or not) with the morphology the photo recipe needs.
struct Mask: Equatable {
    let width: Int
    let height: Int
    var bits: [Bool]

    init(width: Int, height: Int, bits: [Bool]) {
        precondition(bits.count == width * height, "mask size does not match")
        self.width = width
        self.height = height
        self.bits = bits
    }

    init(width: Int, height: Int, value: Bool = false) {
        self.init(width: width, height: height, bits: [Bool](repeating: value, count: width * height))
    }

    var area: Int { bits.reduce(0) { $0 + ($1 ? 1 : 0) } }

    /// The smallest rectangle holding every set pixel; nil for an empty mask.
    var boundingBox: PixelRect? {
        var minX = width, minY = height, maxX = -1, maxY = -1
        for y in 0..<height {
            for x in 0..<width where bits[y * width + x] {
                minX = min(minX, x); maxX = max(maxX, x)
                minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        return maxX < 0 ? nil : PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    /// 3x3 maximum. Pixels outside the image count as unset.
    func dilated() -> Mask { neighbourhood(any: true) }

    /// 3x3 minimum. Pixels outside the image count as set, so a garment touching the border
    /// does not lose its edge.
    func eroded() -> Mask { neighbourhood(any: false) }

    func closed() -> Mask { dilated().eroded() }
    func opened() -> Mask { eroded().dilated() }

    /// A 3x3 maximum (`any`) or minimum, as two separable passes of three.
    private func neighbourhood(any: Bool) -> Mask {
        let outside = !any
        var horizontal = [Bool](repeating: false, count: bits.count)
        var out = [Bool](repeating: false, count: bits.count)
        let width = self.width, height = self.height
        bits.withUnsafeBufferPointer { source in
            horizontal.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    let row = y * width
                    for x in 0..<width {
                        let left = x > 0 ? source[row + x - 1] : outside
                        let right = x < width - 1 ? source[row + x + 1] : outside
                        let centre = source[row + x]
                        target[row + x] = any ? (left || centre || right) : (left && centre && right)
                    }
                }
            }
        }
        horizontal.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    let row = y * width
                    for x in 0..<width {
                        let up = y > 0 ? source[row - width + x] : outside
                        let down = y < height - 1 ? source[row + width + x] : outside
                        let centre = source[row + x]
                        target[row + x] = any ? (up || centre || down) : (up && centre && down)
                    }
                }
            }
        }
        return Mask(width: width, height: height, bits: out)
    }

    /// Unset regions not connected (4-neighbours) to the border become set: holes are filled.
    func holesFilled() -> Mask {
        var outside = [Bool](repeating: false, count: bits.count)
        var stack = [Int32](repeating: 0, count: bits.count)
        var top = 0
        let width = self.width, height = self.height
        bits.withUnsafeBufferPointer { bits in
            outside.withUnsafeMutableBufferPointer { outside in
                stack.withUnsafeMutableBufferPointer { stack in
                    func push(_ index: Int) {
                        if !bits[index] && !outside[index] { outside[index] = true; stack[top] = Int32(index); top += 1 }
                    }
                    for x in 0..<width { push(x); push((height - 1) * width + x) }
                    for y in 0..<height { push(y * width); push(y * width + width - 1) }
                    while top > 0 {
                        top -= 1
                        let index = Int(stack[top])
                        let x = index % width, y = index / width
                        if x > 0 { push(index - 1) }
                        if x < width - 1 { push(index + 1) }
                        if y > 0 { push(index - width) }
                        if y < height - 1 { push(index + width) }
                    }
                }
            }
        }
        for i in 0..<outside.count { outside[i].toggle() }
        return Mask(width: width, height: height, bits: outside)
    }

    /// The 8-connected component with the largest total of `weight` over its pixels.
    func heaviestComponent(weight: [Float]) -> Mask {
        var label = [Int32](repeating: -1, count: bits.count)
        var stack = [Int32](repeating: 0, count: bits.count)
        var bestLabel: Int32 = -1
        var bestWeight: Float = 0
        var next: Int32 = 0
        let width = self.width, height = self.height
        bits.withUnsafeBufferPointer { bits in
            label.withUnsafeMutableBufferPointer { label in
                stack.withUnsafeMutableBufferPointer { stack in
                    weight.withUnsafeBufferPointer { weight in
                        for start in 0..<bits.count where bits[start] && label[start] < 0 {
                            label[start] = next
                            stack[0] = Int32(start)
                            var top = 1
                            var total: Float = 0
                            while top > 0 {
                                top -= 1
                                let index = Int(stack[top])
                                total += weight[index]
                                let (y, x) = index.quotientAndRemainder(dividingBy: width)
                                let left = x > 0 ? -1 : 0, right = x < width - 1 ? 1 : 0
                                let up = y > 0 ? -width : 0, down = y < height - 1 ? width : 0
                                for rowOffset in stride(from: up, through: down, by: width) {
                                    for columnOffset in left...right {
                                        let neighbour = index + rowOffset + columnOffset
                                        if bits[neighbour] && label[neighbour] < 0 {
                                            label[neighbour] = next
                                            stack[top] = Int32(neighbour)
                                            top += 1
                                        }
                                    }
                                }
                            }
                            if total > bestWeight { bestWeight = total; bestLabel = next }
                            next += 1
                        }
                    }
                }
            }
        }
        var out = [Bool](repeating: false, count: bits.count)
        if bestLabel >= 0 {
            for i in 0..<out.count where label[i] == bestLabel { out[i] = true }
        }
        return Mask(width: width, height: height, bits: out)
    }
}
