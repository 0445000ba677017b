fn main() {
    println!("widephase: skeleton");
}
