// jsdom answers getComputedStyle by matching every rule of every stylesheet antd has injected,
// and each antd popup (select, tree select, menu, tooltip) asks it for every ancestor to align
// itself, and tables for their container: seconds per popup on a slow machine. A suite that
// finds things by text and label, never by visibility, may let only inline styles count.
export function useInlineStylesOnly(): void {
  const real = window.getComputedStyle;
  beforeAll(() => {
    window.getComputedStyle = ((el: Element) => {
      const style = document.createElement('div').style;
      style.cssText = (el as HTMLElement).style?.cssText ?? '';
      return style;
    }) as typeof window.getComputedStyle;
  });
  afterAll(() => {
    window.getComputedStyle = real;
  });
}
