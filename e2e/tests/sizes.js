// The two screens every layout is checked at: a desktop's, and a phone's (an iPhone's
// 390×844 CSS pixels at 3 device pixels each, touch).
export const SIZES = {
  desktop: { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 2 },
  phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, hasTouch: true, isMobile: true },
};
