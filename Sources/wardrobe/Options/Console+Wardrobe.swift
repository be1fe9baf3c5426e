import CommandLineKit
import Foundation
import Wardrobe

extension Console {
    /// The setup every command uses: this process's environment and binary.
    var setup: WardrobeSetup {
        WardrobeSetup(environment: environment,
                      executable: URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath(),
                      notice: { [self] in warning($0) })
    }
}
