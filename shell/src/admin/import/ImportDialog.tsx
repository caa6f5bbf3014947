// 批量导入 of 系统管理 › 用户, in three steps: 选择文件 (templates, the columns, the mode and the
// file), 检查结果 (the server checks the whole file and writes nothing: the refused rows, or what
// the import would add, update, disable and create) and 完成 (what was written, and the
// generated initial passwords, shown this once and exportable as CSV). 全量同步 disables the
// people the file leaves out, after a confirmation naming how many.
import { useState, type ReactNode } from 'react';
import { App as AntApp, Button, Modal, Steps, type UploadFile } from 'antd';
import type { ImportMode, ImportPlan, ImportResult } from '@app/shared';
import { adminApi } from '@app/shared/admin';
import { ImportDoneStep } from './ImportDoneStep';
import { ImportFileStep } from './ImportFileStep';
import { ImportPlanStep } from './ImportPlanStep';

export interface ImportDialogProps {
  open: boolean;
  onClose: () => void;
  /** after an import was written: the list of people should be loaded again */
  onApplied: () => void;
}

type Step = 0 | 1 | 2;

export function ImportDialog({ open, onClose, onApplied }: ImportDialogProps) {
  const { modal } = AntApp.useApp();
  const [step, setStep] = useState<Step>(0);
  const [mode, setMode] = useState<ImportMode>('upsert');
  const [fileList, setFileList] = useState<UploadFile[]>([]);
  const [checking, setChecking] = useState(false);
  const [plan, setPlan] = useState<ImportPlan | null>(null);
  const [applying, setApplying] = useState(false);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [exported, setExported] = useState(false);

  // every opening starts from the first step; the content stays while the dialog closes
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) {
      setStep(0);
      setMode('upsert');
      setFileList([]);
      setChecking(false);
      setPlan(null);
      setApplying(false);
      setResult(null);
      setExported(false);
    }
  }

  const file = fileList[0]?.originFileObj;

  const check = async () => {
    if (!file) return;
    setChecking(true);
    try {
      const p = await adminApi.checkImport(file, file.name, mode);
      setPlan(p);
      setStep(1);
    } catch {
      /* shown by the http client */
    } finally {
      setChecking(false);
    }
  };

  const chooseAgain = () => {
    setFileList([]);
    setPlan(null);
    setStep(0);
  };

  const apply = async () => {
    if (!plan) return;
    setApplying(true);
    try {
      const r = await adminApi.applyImport(plan.importId, plan.disables);
      setResult(r);
      setStep(2);
      onApplied();
    } catch {
      /* shown by the http client */
    } finally {
      setApplying(false);
    }
  };

  const confirmApply = () => {
    if (!plan) return;
    if (plan.mode === 'sync' && plan.disables > 0) {
      modal.confirm({
        title: `确认停用 ${plan.disables} 个用户？`,
        content: '这些用户不在导入文件中，将被停用（账号保留，可随时启用）。',
        okText: '停用并导入',
        okButtonProps: { danger: true },
        cancelText: '取消',
        onOk: () => apply(),
      });
      return;
    }
    void apply();
  };

  const close = () => {
    if (checking || applying) return;
    if (step === 2 && result?.passwords.length && !exported) {
      modal.confirm({
        title: '初始密码尚未导出',
        content: '关闭后将无法再次查看这些初始密码。确定关闭吗？',
        okText: '仍然关闭',
        cancelText: '返回',
        onOk: onClose,
      });
      return;
    }
    onClose();
  };

  const hasErrors = Boolean(plan && plan.errors.length > 0);
  const nothingToDo = Boolean(plan && !hasErrors && plan.adds + plan.updates + plan.disables + plan.departmentsToCreate.length === 0);

  let footer: ReactNode[];
  if (step === 0) {
    footer = [
      <Button key="cancel" onClick={close} disabled={checking}>
        取消
      </Button>,
      <Button key="check" type="primary" disabled={!file} loading={checking} onClick={() => void check()}>
        检查
      </Button>,
    ];
  } else if (step === 1) {
    footer = [
      <Button key="again" onClick={chooseAgain} disabled={applying}>
        重新选择文件
      </Button>,
      ...(hasErrors
        ? []
        : [
            <Button key="apply" type="primary" disabled={nothingToDo} loading={applying} onClick={confirmApply}>
              应用导入
            </Button>,
          ]),
    ];
  } else {
    footer = [
      <Button key="done" type="primary" onClick={close}>
        完成
      </Button>,
    ];
  }

  return (
    <Modal
      open={open}
      title="批量导入用户"
      width={860}
      onCancel={close}
      closable={!checking && !applying}
      mask={{ closable: false }}
      keyboard={!checking && !applying}
      footer={footer}
    >
      <Steps
        current={step}
        status={step === 2 ? 'finish' : hasErrors ? 'error' : 'process'}
        size="small"
        style={{ marginBottom: 24 }}
        items={[{ title: '选择文件' }, { title: '检查结果' }, { title: '完成' }]}
      />

      {step === 0 ? <ImportFileStep mode={mode} onModeChange={setMode} fileList={fileList} onFileListChange={setFileList} checking={checking} /> : null}

      {step === 1 && plan ? <ImportPlanStep plan={plan} hasErrors={hasErrors} nothingToDo={nothingToDo} /> : null}

      {step === 2 && result ? <ImportDoneStep result={result} exported={exported} onExported={() => setExported(true)} /> : null}
    </Modal>
  );
}
