export function AccountApp() {
  return <p>Your account</p>;
}
