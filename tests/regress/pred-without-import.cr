x = #[pred] "a"
