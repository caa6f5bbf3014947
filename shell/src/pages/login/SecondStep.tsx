// The second step of a sign-in (loaded when an answer asks for one): a new password, binding
// TOTP, or a TOTP code.
import { PasswordResetStep, type StepProps } from './PasswordResetStep';
import { TotpBindStep } from './TotpBindStep';
import { TotpCodeStep } from './TotpCodeStep';
import { stepOf } from './stepSubmit';

export default function SecondStep(props: StepProps) {
  switch (stepOf(props.step)) {
    case 'passwordReset':
      return <PasswordResetStep {...props} />;
    case 'totpBind':
      return <TotpBindStep {...props} />;
    default:
      return <TotpCodeStep {...props} />;
  }
}
