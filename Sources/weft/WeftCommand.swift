@main
struct WeftCommand {
    static func main() {
        print("weft: not built yet")
    }
}
