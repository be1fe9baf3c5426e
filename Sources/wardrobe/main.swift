import CommandLineKit
import Foundation
import Wardrobe

// The executable only parses, calls the Wardrobe library, and prints.
WardrobeProcess.start()
let console = Console(environment: SystemEnvironment.all())
exit(CommandLineTool.run(SystemArguments.all(), root: RootCommand.self, console: console))
