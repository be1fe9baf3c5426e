#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The chromaticity of a light in the CIE 1960 UCS (u, v), and how far it lies from the
/// Planckian locus, the colours of black bodies that every lamp and daylight people photograph
/// under lie near: daylight (D65) is 0.0032 above it, a tungsten bulb (illuminant A) on it.
/// A colour well off it (a red bed's, a yellow wall's) is the colour of a surface, not of
/// the light.
package struct LightChromaticity: Equatable {
    package var u: Double
    package var v: Double

    package init(u: Double, v: Double) {
        self.u = u
        self.v = v
    }

    /// From linear-light sRGB: the sRGB primaries to XYZ (as `CIELab`), then u = 4X / (X + 15Y
    /// + 3Z) and v = 6Y / (X + 15Y + 3Z). Black has no chromaticity; it is taken as D65's.
    package init(linearRed r: Double, green g: Double, blue b: Double) {
        let x = 0.4124564 * r + 0.3575761 * g + 0.1804375 * b
        let y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
        let z = 0.0193339 * r + 0.1191920 * g + 0.9503041 * b
        let denominator = x + 15 * y + 3 * z
        guard denominator > 0 else {
            self.init(linearRed: 1, green: 1, blue: 1)
            return
        }
        self.init(u: 4 * x / denominator, v: 6 * y / denominator)
    }

    /// Duv: the signed distance from the Planckian locus in (u, v), above it (toward green)
    /// positive, below it (toward magenta) negative. Ohno's polynomial in the angle about
    /// (0.292, 0.24) (Y. Ohno, "Practical use and calculation of CCT and Duv", LEUKOS 10,
    /// 2014), within 0.0001 of the distance to the locus from 2,000 K to 20,000 K; the tests
    /// hold it to daylight's and a tungsten bulb's published values.
    package var distanceFromPlanckianLocus: Double {
        let (du, dv) = (u - 0.292, v - 0.24)
        let radius = (du * du + dv * dv).squareRoot()
        guard radius > 0 else { return 0 }
        let angle = acos(max(-1, min(1, du / radius)))
        let coefficients = [-0.471106, 1.925865, -2.4243787, 1.5317403, -0.5179722, 0.0893944, -0.00616793]
        var locusRadius = 0.0, power = 1.0
        for coefficient in coefficients {
            locusRadius += coefficient * power
            power *= angle
        }
        return radius - locusRadius
    }
}
