motdepasse-solide-42
