// LoadError lives in app/ui (every feature shows it); this path stays for the features that import it here.
export { LoadError } from "../../ui/load-error.tsx";
