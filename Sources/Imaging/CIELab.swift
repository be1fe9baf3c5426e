#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A colour in CIE L*a*b* (D65 white, the 2-degree observer), from sRGB as cameras and
/// phones write it: lightness 0...100 and two opponent axes, green-red (a) and blue-yellow
/// (b). Colours are compared by CIEDE2000 (`difference(to:)`), the CIE's distance that
/// follows how far apart people judge two colours to be, not by distances in RGB.
public struct CIELab: Sendable, Equatable {
    public var lightness: Double
    public var a: Double
    public var b: Double

    public init(lightness: Double, a: Double, b: Double) {
        self.lightness = lightness
        self.a = a
        self.b = b
    }

    /// From 8-bit sRGB samples (0...255; fractions allowed, as averages give).
    public init(red: Double, green: Double, blue: Double) {
        self.init(linearRed: Self.linear(red), green: Self.linear(green), blue: Self.linear(blue))
    }

    /// IEC 61966-2-1: an sRGB sample (0...255) to linear light (0...1).
    static func linear(_ value: Double) -> Double {
        let c = max(0, min(1, value / 255))
        return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    /// From linear-light sRGB (0...1): the sRGB primaries to XYZ, then CIE 1976 relative to D65.
    init(linearRed r: Double, green g: Double, blue bl: Double) {
        let x = 0.4124564 * r + 0.3575761 * g + 0.1804375 * bl
        let y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * bl
        let z = 0.0193339 * r + 0.1191920 * g + 0.9503041 * bl
        func f(_ t: Double) -> Double {
            let epsilon = 216.0 / 24389.0, kappa = 24389.0 / 27.0
            return t > epsilon ? CIELab.cubeRoot(t) : (kappa * t + 16) / 116
        }
        let (fx, fy, fz) = (f(x / 0.95047), f(y), f(z / 1.08883))
        self.init(lightness: 116 * fy - 16, a: 500 * (fx - fy), b: 200 * (fy - fz))
    }

    /// The cube root of `t` (positive and normal), within a few units in the last place of
    /// `cbrt`'s: a first guess from the exponent's bits (a third of them, offset so that the
    /// guess is within 4%), then two steps of Halley's method, each cubing the error. Colour
    /// naming converts every pixel it measures, and libm's `cbrt` was a third of its time.
    @inline(__always)
    static func cubeRoot(_ t: Double) -> Double {
        var y = Double(bitPattern: t.bitPattern / 3 + 0x2A9F_7893_782D_A1CE)
        for _ in 0..<2 {
            let cube = y * y * y
            y *= (cube + 2 * t) / (2 * cube + t)
        }
        return y
    }

    /// `#RRGGBB`.
    public init?(hex: String) {
        guard hex.count == 7, hex.first == "#", let value = Int(hex.dropFirst(), radix: 16) else { return nil }
        self.init(red: Double(value >> 16 & 0xFF), green: Double(value >> 8 & 0xFF), blue: Double(value & 0xFF))
    }

    /// Chroma: how far from gray.
    public var chroma: Double { (a * a + b * b).squareRoot() }

    /// CIEDE2000 (CIE 142-2001), with the reference conditions' weights (kL = kC = kH = 1),
    /// in the form Sharma, Wu and Dalal (2005) give with their test data.
    public func difference(to other: CIELab) -> Double {
        let degrees = 180.0 / Double.pi
        let (l1, l2) = (lightness, other.lightness)
        let cBar = (chroma + other.chroma) / 2
        let g = 0.5 * (1 - (pow(cBar, 7) / (pow(cBar, 7) + pow(25, 7))).squareRoot())
        let (a1, a2) = ((1 + g) * a, (1 + g) * other.a)
        let (c1, c2) = ((a1 * a1 + b * b).squareRoot(), (a2 * a2 + other.b * other.b).squareRoot())
        func hue(_ a: Double, _ b: Double) -> Double {
            guard a != 0 || b != 0 else { return 0 }
            let h = atan2(b, a) * degrees
            return h < 0 ? h + 360 : h
        }
        let (h1, h2) = (hue(a1, b), hue(a2, other.b))
        let deltaL = l2 - l1
        let deltaC = c2 - c1
        var deltaH = 0.0
        if c1 * c2 != 0 {
            deltaH = h2 - h1
            if deltaH > 180 { deltaH -= 360 } else if deltaH < -180 { deltaH += 360 }
        }
        let deltaBigH = 2 * (c1 * c2).squareRoot() * sin(deltaH / 2 / degrees)
        let lBar = (l1 + l2) / 2
        let cBarPrime = (c1 + c2) / 2
        var hBar = h1 + h2
        if c1 * c2 != 0 {
            if abs(h1 - h2) <= 180 { hBar = (h1 + h2) / 2 } else if h1 + h2 < 360 { hBar = (h1 + h2 + 360) / 2 } else { hBar = (h1 + h2 - 360) / 2 }
        }
        let t = 1 - 0.17 * cos((hBar - 30) / degrees) + 0.24 * cos(2 * hBar / degrees)
            + 0.32 * cos((3 * hBar + 6) / degrees) - 0.20 * cos((4 * hBar - 63) / degrees)
        let deltaTheta = 30 * exp(-pow((hBar - 275) / 25, 2))
        let rC = 2 * (pow(cBarPrime, 7) / (pow(cBarPrime, 7) + pow(25, 7))).squareRoot()
        let sL = 1 + 0.015 * pow(lBar - 50, 2) / (20 + pow(lBar - 50, 2)).squareRoot()
        let sC = 1 + 0.045 * cBarPrime
        let sH = 1 + 0.015 * cBarPrime * t
        let rT = -sin(2 * deltaTheta / degrees) * rC
        let (l, c, h) = (deltaL / sL, deltaC / sC, deltaBigH / sH)
        return (l * l + c * c + h * h + rT * c * h).squareRoot()
    }
}
