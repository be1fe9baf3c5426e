import Foundation
import Imaging

/// Photos made here for the duplicate tests: a shirt saved as four files (the source, and
/// copies resized and recompressed, brightened, cropped) and trousers of the same blue, an
/// unrelated photo.
enum DuplicatePhotos {
    /// A blue garment on a wall whose light falls from one side: a shirt (a body and two
    /// sleeves) near the middle, or trousers (two legs) to the left.
    static func photo(trousers: Bool) -> Bitmap {
        let width = 300, height = 400
        var photo = Bitmap(width: width, height: height, filledWith: [0, 0, 0])
        for y in 0..<height {
            for x in 0..<width {
                let inGarment: Bool
                if trousers {
                    let inLeg = (x >= 40 && x < 95) || (x >= 110 && x < 165)
                    inGarment = y >= 60 && y < 360 && (inLeg || (y < 120 && x >= 40 && x < 165))
                } else {
                    let inBody = x >= 90 && x < 210 && y >= 80 && y < 340
                    inGarment = inBody || (x >= 40 && x < 260 && y >= 80 && y < 160)
                }
                let grain = UInt8((x * 7 + y * 13) % 9)
                let wall = UInt8(170 + (trousers ? y : x) * 70 / (trousers ? height : width))
                photo.set(x: x, y: y, to: (inGarment ? [60, 90, 150] : [wall, wall, wall - 6]).map { $0 + grain })
            }
        }
        return photo
    }

    static func brightened(_ image: Bitmap, by factor: Double) -> Bitmap {
        var image = image
        for i in image.pixels.indices { image.pixels[i] = UInt8(min(255, Double(image.pixels[i]) * factor)) }
        return image
    }

    /// The source, three copies of it, and the unrelated photo, in `photos/`.
    static func folder() throws -> PhotoFolder {
        let folder = try PhotoFolder()
        let shirt = photo(trousers: false)
        try folder.write(try JPEGEncoder(quality: 92).encode(shirt), to: "photos/shirt.jpg")
        try folder.write(try JPEGEncoder(quality: 45).encode(shirt.resized(width: 150, height: 200)), to: "photos/shirt-small.jpg")
        try folder.write(try JPEGEncoder(quality: 85).encode(brightened(shirt, by: 1.15)), to: "photos/shirt-bright.jpg")
        let cropped = shirt.cropped(to: PixelRect(x: 0, y: 20, width: 280, height: 380))
        try folder.write(try JPEGEncoder(quality: 80).encode(cropped), to: "photos/shirt-cropped.jpg")
        try folder.write(try JPEGEncoder(quality: 92).encode(photo(trousers: true)), to: "photos/trousers.jpg")
        return folder
    }
}
