fn main() {
    println!("tilekit");
}
