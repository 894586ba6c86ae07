/** Loads a third-party script once per page, on first need (Stripe.js at the payment step, Turnstile at the bot check). */
const loading = new Map<string, Promise<void>>();

export function loadScript(src: string): Promise<void> {
  let promise = loading.get(src);
  if (!promise) {
    promise = new Promise((resolve, reject) => {
      const element = document.createElement('script');
      element.src = src;
      element.onload = () => resolve();
      element.onerror = () => {
        // A failed load may be tried again (the guest's connection came back).
        loading.delete(src);
        reject(new Error(`${src} could not be loaded`));
      };
      document.head.append(element);
    });
    loading.set(src, promise);
  }
  return promise;
}
