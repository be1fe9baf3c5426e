/// Tensors as pictures: enlarged gray bitmaps and PNG files, and contact sheets that put
/// photos beside what a recipe made of them.
public enum TensorImage {
    /// The 28x28 tensor as a gray bitmap, each value a `scale` x `scale` block.
    public static func bitmap(_ values: [Float], scale: Int = 10) -> Bitmap {
        precondition(values.count == PreparedTensor.count && scale >= 1, "a tensor has \(PreparedTensor.side)x\(PreparedTensor.side) values")
        let side = PreparedTensor.side * scale
        var pixels = [UInt8](repeating: 0, count: side * side)
        for y in 0..<side {
            for x in 0..<side {
                let value = values[(y / scale) * PreparedTensor.side + x / scale]
                pixels[y * side + x] = UInt8(max(0, min(255, (value * 255).rounded())))
            }
        }
        return Bitmap(width: side, height: side, channels: 1, pixels: pixels)
    }

    /// An enlarged gray PNG of the tensor.
    public static func png(_ values: [Float], scale: Int = 10) throws(ImagingError) -> [UInt8] {
        try PNGEncoder().encode(bitmap(values, scale: scale))
    }

    /// One row per entry: the photo fitted into a `cell` x `cell` square (dark gray around it)
    /// with the crop box outlined, then each tensor enlarged to the same height.
    public static func contactSheet(_ rows: [(photo: Bitmap, tensors: [PreparedTensor])], cell: Int = 140) -> Bitmap {
        precondition(!rows.isEmpty, "a contact sheet has at least one row")
        let gap = 4
        let columns = 1 + (rows.map(\.tensors.count).max() ?? 0)
        let width = columns * (cell + gap) + gap
        let height = rows.count * (cell + gap) + gap
        var sheet = Bitmap(width: width, height: height, filledWith: [40, 40, 40])
        for (r, row) in rows.enumerated() {
            let top = gap + r * (cell + gap)
            // Fitted to the cell both ways, so a 28x28 input is as visible as a photo.
            let scale = Double(cell) / Double(max(row.photo.width, row.photo.height))
            let photo = row.photo.rgb().resized(width: max(1, Int((Double(row.photo.width) * scale).rounded())),
                                                height: max(1, Int((Double(row.photo.height) * scale).rounded())))
            let left = gap + (cell - photo.width) / 2, photoTop = top + (cell - photo.height) / 2
            paste(photo, into: &sheet, x: left, y: photoTop)
            let scaleX = Double(photo.width) / Double(row.photo.width)
            let scaleY = Double(photo.height) / Double(row.photo.height)
            for tensor in row.tensors {
                let box = tensor.cropBox.scaled(x: scaleX, y: scaleY)
                outline(box, in: &sheet, offsetX: left, offsetY: photoTop, limit: PixelRect(x: left, y: photoTop, width: photo.width, height: photo.height))
            }
            for (t, tensor) in row.tensors.enumerated() {
                let enlarged = bitmap(tensor.values, scale: 1).resized(width: cell, height: cell).rgb()
                paste(enlarged, into: &sheet, x: gap + (t + 1) * (cell + gap), y: top)
            }
        }
        return sheet
    }

    private static func paste(_ image: Bitmap, into sheet: inout Bitmap, x: Int, y: Int) {
        for row in 0..<image.height {
            for column in 0..<image.width {
                sheet.set(x: x + column, y: y + row, to: Array(image[column, row]))
            }
        }
    }

    private static func outline(_ box: PixelRect, in sheet: inout Bitmap, offsetX: Int, offsetY: Int, limit: PixelRect) {
        let red: [UInt8] = [255, 40, 40]
        func mark(_ x: Int, _ y: Int) {
            let sx = x + offsetX, sy = y + offsetY
            if sx >= limit.x && sx < limit.maxX && sy >= limit.y && sy < limit.maxY { sheet.set(x: sx, y: sy, to: red) }
        }
        for x in box.x..<box.maxX { mark(x, box.y); mark(x, box.maxY - 1) }
        for y in box.y..<box.maxY { mark(box.x, y); mark(box.maxX - 1, y) }
    }
}
